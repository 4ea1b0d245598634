import { teamRoutes } from "./helpdesk/team-routes";
import { ticketRoutes } from "./helpdesk/ticket-routes";
import type { Route } from "./http/define-route";
import { afterSalesRoutes } from "./shop/after-sales-routes";
import { cartRoutes } from "./shop/cart-routes";
import { catalogRoutes } from "./shop/catalog-routes";
import { couponRoutes } from "./shop/coupon-routes";
import { customerRoutes } from "./shop/customer-routes";
import { fulfilmentRoutes } from "./shop/fulfilment-routes";
import { orderRoutes } from "./shop/order-routes";
import { paymentRoutes } from "./shop/payment-routes";
import { shippingRoutes } from "./shop/shipping-routes";
import { adminRoutes } from "./system/admin-routes";
import { systemRoutes } from "./system/system-routes";

/** Every endpoint of the service; the OpenAPI document is generated from this table. */
export const legacyRoutes: readonly Route[] = [
  ...systemRoutes,
  ...catalogRoutes,
  ...customerRoutes,
  ...cartRoutes,
  ...shippingRoutes,
  ...couponRoutes,
  ...orderRoutes,
  ...paymentRoutes,
  ...fulfilmentRoutes,
  ...afterSalesRoutes,
  ...teamRoutes,
  ...ticketRoutes,
  ...adminRoutes,
];
