import type { Metadata } from "next";
import { StatusPage } from "@/app/_lib/status-page";

export const metadata: Metadata = { title: "Not available" };

/** A page the signed-in person's role may not open (HTTP 403), with the console's navigation. */
export default function Forbidden() {
  return (
    <StatusPage code={403} title="Not available for your role">
      This page is for another role (admins manage permissions, agents and connectors; support and admins
      watch the monitor). Ask an admin if you need it.
    </StatusPage>
  );
}
