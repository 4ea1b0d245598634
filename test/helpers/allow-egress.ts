// Lives with the connector kit, whose worlds open the egress policy for a connector's system.
export { allowEgressTo } from "@/sdk-testing/allow-egress";
