import type { Metadata } from "next";
import { StatusPage } from "@/app/_lib/status-page";

export const metadata: Metadata = { title: "Not found" };

/** Unknown addresses and ids (HTTP 404), with the console's navigation. */
export default function NotFound() {
  return (
    <StatusPage code={404} title="This page does not exist">
      The address may be mistyped, or the thing it pointed at is not in your tenant (or not yours to see).
    </StatusPage>
  );
}
