import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

// Each page names itself ("Approvals · Signpost"); the tab also counts what waits (components/pending-notifier.tsx).
export const metadata: Metadata = {
  title: { default: "Signpost", template: "%s · Signpost" },
  description: "Agent gateway console",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f8fafc" },
    { media: "(prefers-color-scheme: dark)", color: "#020618" },
  ],
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
