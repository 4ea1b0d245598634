import { LoadingState } from "@/components/ui";

/** Shown while a console page's server component loads (streamed by the App Router). */
export default function Loading() {
  return <LoadingState label="Loading…" />;
}
