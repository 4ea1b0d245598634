"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { buttonClass } from "./ui";

/**
 * Asks before something that cannot be taken back, naming what will happen. A native modal
 * <dialog>: focus moves into it, Escape cancels, the page behind is inert. The safe choice
 * (Cancel) has the focus first.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-950/50"
      data-testid="confirm-dialog"
    >
      <h2 id="confirm-dialog-title" className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        {/* biome-ignore lint/a11y/noAutofocus: the safe choice gets the focus in a destructive dialog */}
        <button type="button" autoFocus className={buttonClass("secondary")} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={buttonClass("danger")} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
