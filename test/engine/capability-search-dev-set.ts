/**
 * The public dev set of intents for capability search: what users say (English and Chinese)
 * and the capability that should rank first. Grow it when search gets something wrong.
 */
export const CAPABILITY_SEARCH_DEV_SET: Array<{ query: string; expected: string }> = [
  // checkout
  { query: "Buy two of the item in my cart and ship it to the office", expected: "checkout" },
  { query: "I want to purchase a kettle", expected: "checkout" },
  { query: "place an order for the mug and pay with my balance", expected: "checkout" },
  { query: "check out my cart", expected: "checkout" },
  { query: "pay for the things in my basket", expected: "checkout" },
  { query: "我要下单买两个杯子", expected: "checkout" },
  { query: "帮我结账", expected: "checkout" },
  { query: "用余额支付购物车里的东西", expected: "checkout" },
  // after_sales
  { query: "I want a refund for my order", expected: "after_sales" },
  { query: "return the kettle, it arrived broken", expected: "after_sales" },
  { query: "can I get my money back", expected: "after_sales" },
  { query: "exchange the t-shirt for a smaller size", expected: "after_sales" },
  { query: "the lamp is defective, I want to send it back", expected: "after_sales" },
  { query: "I was overcharged for shipping", expected: "after_sales" },
  { query: "cancel and refund my order that hasn't shipped", expected: "after_sales" },
  { query: "我要退货退款", expected: "after_sales" },
  { query: "我想退款", expected: "after_sales" },
  { query: "衣服尺码不对，想换货", expected: "after_sales" },
  { query: "收到的商品坏了", expected: "after_sales" },
  { query: "申请售后", expected: "after_sales" },
  // A state the record is in, beside what is asked: "delivered" describes the tee, it asks no
  // delivery (round 4's played model got change_delivery_address for the first three).
  { query: "Exchange my delivered tee for size L", expected: "after_sales" },
  { query: "exchange my delivered tee", expected: "after_sales" },
  { query: "swap my delivered tee for a large", expected: "after_sales" },
  { query: "return the delivered kettle", expected: "after_sales" },
  { query: "return my delivered lamp, it is too big", expected: "after_sales" },
  { query: "swap the paid mug for a blue one", expected: "after_sales" },
  { query: "return the kettle delivered last week", expected: "after_sales" },
  { query: "refund what was delivered", expected: "after_sales" },
  // change_delivery_address
  { query: "change the delivery address of my order", expected: "change_delivery_address" },
  { query: "deliver the kettle to my office", expected: "change_delivery_address" },
  { query: "please ship my order to my home instead of the office", expected: "change_delivery_address" },
  { query: "I moved, update where the parcel should go", expected: "change_delivery_address" },
  { query: "wrong address on my order", expected: "change_delivery_address" },
  { query: "我要修改收货地址", expected: "change_delivery_address" },
  { query: "地址填错了，帮我改一下", expected: "change_delivery_address" },
  // track_shipment
  { query: "where is my package", expected: "track_shipment" },
  { query: "track the shipped kettle", expected: "track_shipment" },
  { query: "track my order", expected: "track_shipment" },
  { query: "when will my parcel arrive", expected: "track_shipment" },
  { query: "what's the tracking number", expected: "track_shipment" },
  { query: "我的快递到哪了", expected: "track_shipment" },
  { query: "查一下物流", expected: "track_shipment" },
  // assign_ticket
  { query: "assign ticket tkt_3 to Sid", expected: "assign_ticket" },
  { query: "hand this ticket over to the shipping team", expected: "assign_ticket" },
  { query: "reassign the support ticket to Bella", expected: "assign_ticket" },
  { query: "把这个工单分配给Sara", expected: "assign_ticket" },
  { query: "工单转给物流组", expected: "assign_ticket" },
  // comment_ticket
  { query: "add a comment to ticket tkt_3", expected: "comment_ticket" },
  { query: "leave an internal note on the ticket", expected: "comment_ticket" },
  { query: "reply to the customer on tkt_2", expected: "comment_ticket" },
  { query: "给这个工单加个备注", expected: "comment_ticket" },
  // change_ticket_priority
  { query: "make this ticket urgent", expected: "change_ticket_priority" },
  { query: "escalate the ticket", expected: "change_ticket_priority" },
  { query: "lower the priority of tkt_2", expected: "change_ticket_priority" },
  { query: "把工单优先级调高", expected: "change_ticket_priority" },
  { query: "这个工单很紧急，加急处理", expected: "change_ticket_priority" },
  // resolve_ticket
  { query: "mark the ticket as resolved", expected: "resolve_ticket" },
  { query: "close the ticket, the customer's issue is fixed", expected: "resolve_ticket" },
  { query: "the problem is solved, resolve tkt_1", expected: "resolve_ticket" },
  { query: "问题已解决，关闭工单", expected: "resolve_ticket" },
  // reopen_ticket
  { query: "reopen the ticket, the customer came back", expected: "reopen_ticket" },
  { query: "reopen my closed ticket", expected: "reopen_ticket" },
  { query: "the fix didn't hold, open the ticket again", expected: "reopen_ticket" },
  { query: "重新打开这个工单", expected: "reopen_ticket" },
  { query: "客户说还没解决，重开工单", expected: "reopen_ticket" },
];

/**
 * Intents written after the synonyms were tuned on the dev set above, and never tuned on:
 * their recall@1 is the honest estimate. Add misses here only together with a fix that is
 * then checked on new intents.
 */
export const CAPABILITY_SEARCH_HELD_OUT: Array<{ query: string; expected: string }> = [
  { query: "order three t-shirts for me", expected: "checkout" },
  { query: "I'd like to get the hoodie, use my card", expected: "checkout" },
  { query: "请帮我购买这个台灯", expected: "checkout" },
  { query: "the headphones I got don't work, I want my money returned", expected: "after_sales" },
  { query: "refund the order I paid yesterday", expected: "after_sales" },
  { query: "swap my medium tee for a large", expected: "after_sales" },
  { query: "这个订单我不想要了，要退款", expected: "after_sales" },
  { query: "快递费多收了，退我差价", expected: "after_sales" },
  { query: "send my package to my office address", expected: "change_delivery_address" },
  { query: "I need to redirect my order to a different address", expected: "change_delivery_address" },
  { query: "送货地址改成家里", expected: "change_delivery_address" },
  { query: "has my order shipped yet and where is it", expected: "track_shipment" },
  { query: "give me the delivery status of ord_transit", expected: "track_shipment" },
  { query: "我的包裹什么时候到", expected: "track_shipment" },
  { query: "let Sara take over ticket 4", expected: "assign_ticket" },
  { query: "who should own this ticket? put it on Sid", expected: "assign_ticket" },
  { query: "把工单指派给Bella", expected: "assign_ticket" },
  { query: "bump tkt_1 to high priority", expected: "change_ticket_priority" },
  { query: "this ticket is not important, make it low", expected: "change_ticket_priority" },
  { query: "工单降低优先级", expected: "change_ticket_priority" },
  { query: "we fixed the customer's problem, close tkt_9 with a note", expected: "resolve_ticket" },
  { query: "工单已经处理完了，结单", expected: "resolve_ticket" },
  { query: "the customer says it is still broken, reopen tkt_6", expected: "reopen_ticket" },
  { query: "工单需要重新处理", expected: "reopen_ticket" },
];

/**
 * Intents in traditional Chinese (Taiwan and Hong Kong usage), never tuned on one by one: they
 * reach the simplified synonyms through the converter, not through a list of their own.
 */
export const CAPABILITY_SEARCH_TRADITIONAL: Array<{ query: string; expected: string }> = [
  { query: "我要下單買兩個杯子", expected: "checkout" },
  { query: "幫我結帳", expected: "checkout" },
  { query: "用餘額支付購物車裡的東西", expected: "checkout" },
  { query: "我要退貨退款", expected: "after_sales" },
  { query: "申請換貨", expected: "after_sales" },
  { query: "衣服尺碼不對，想換貨", expected: "after_sales" },
  { query: "收到的商品壞了，我想退錢", expected: "after_sales" },
  { query: "我要修改收貨地址", expected: "change_delivery_address" },
  { query: "地址填錯了，幫我改一下", expected: "change_delivery_address" },
  { query: "我的快遞到哪了", expected: "track_shipment" },
  { query: "查詢物流進度", expected: "track_shipment" },
  { query: "把這個工單分配給Sara", expected: "assign_ticket" },
  { query: "工單轉給物流組", expected: "assign_ticket" },
  { query: "這個工單很緊急，提高優先級", expected: "change_ticket_priority" },
  { query: "問題解決了，關閉工單", expected: "resolve_ticket" },
  { query: "重新打開這個工單", expected: "reopen_ticket" },
];

/**
 * Indirect phrasings (tuned on): the words of the situation point at a neighbouring capability
 * (a late parcel → tracking, a refund ticket → after-sales) while the outcome asked for names the
 * right one. The requested outcome must win over the topic.
 */
export const CAPABILITY_SEARCH_INDIRECT: Array<{ query: string; expected: string }> = [
  { query: "my parcel is late and I want my money back", expected: "after_sales" },
  { query: "the package never came, refund me", expected: "after_sales" },
  { query: "the delivery took three weeks, I'd like a refund", expected: "after_sales" },
  { query: "tracking says delivered but nothing arrived, I want my money back", expected: "after_sales" },
  { query: "the parcel arrived crushed, please send a replacement", expected: "after_sales" },
  {
    query: "shipping is so slow I don't want it anymore, cancel it and give the money back",
    expected: "after_sales",
  },
  { query: "快递一直不到，我要退款", expected: "after_sales" },
  { query: "包裹丢了，把钱退给我", expected: "after_sales" },
  {
    query: "the courier can't reach my house, send the parcel to my office instead",
    expected: "change_delivery_address",
  },
  { query: "before the package ships, switch it to my new address", expected: "change_delivery_address" },
  { query: "还没发货，帮我把地址改成公司", expected: "change_delivery_address" },
  { query: "I paid for express shipping, when does the package arrive?", expected: "track_shipment" },
  { query: "I bought a kettle last week, has it shipped yet", expected: "track_shipment" },
  { query: "my old kettle broke, I want to buy a new one", expected: "checkout" },
  { query: "order the same mug again and ship it to my home", expected: "checkout" },
  { query: "the ticket about the late parcel: hand it to Sid", expected: "assign_ticket" },
  { query: "the customer's refund ticket is urgent, escalate it", expected: "change_ticket_priority" },
  { query: "the customer got their money back, close the ticket", expected: "resolve_ticket" },
  { query: "the address change ticket is done, mark it resolved", expected: "resolve_ticket" },
  { query: "客户的退款工单很急，提高优先级", expected: "change_ticket_priority" },
  { query: "物流投诉工单交给Bella处理", expected: "assign_ticket" },
];

/**
 * Indirect phrasings written together with the set above, before any tuning, and never tuned
 * on: the honest estimate for new phrasings of the same kind (English, simplified and
 * traditional Chinese).
 */
export const CAPABILITY_SEARCH_INDIRECT_HELD_OUT: Array<{ query: string; expected: string }> = [
  { query: "my order is stuck in transit for ages, just refund it", expected: "after_sales" },
  { query: "the box showed up empty, I want my money returned", expected: "after_sales" },
  { query: "shipping is taking forever, I'd rather cancel and get refunded", expected: "after_sales" },
  { query: "the delivered shoes are too tight, swap them for a bigger pair", expected: "after_sales" },
  { query: "包裹一直没收到，申请退款", expected: "after_sales" },
  { query: "快遞遲遲沒到，我要退錢", expected: "after_sales" },
  {
    query: "the parcel hasn't left the warehouse yet, deliver it to my parents' address",
    expected: "change_delivery_address",
  },
  {
    query: "I won't be home this week, have the order sent to work instead",
    expected: "change_delivery_address",
  },
  { query: "I paid yesterday, is my order on its way?", expected: "track_shipment" },
  { query: "I ordered a lamp on Monday, what's its status", expected: "track_shipment" },
  { query: "the mug I got was lovely, buy me two more", expected: "checkout" },
  { query: "a customer complains the parcel is late, give the ticket to Sara", expected: "assign_ticket" },
  {
    query: "the refund request ticket needs attention right away, set it to urgent",
    expected: "change_ticket_priority",
  },
  { query: "the delivery issue was sorted out, close tkt_4", expected: "resolve_ticket" },
  { query: "客户说包裹还是没到，重新打开工单", expected: "reopen_ticket" },
  { query: "退款工單已處理好，結單", expected: "resolve_ticket" },
];

/**
 * Requests a capability's own "Not for …" excludes (issue 23): the excluded capability must not
 * come first, and the right one must lead clearly. Written after the ranking change, new
 * phrasings beside the ones a model played.
 */
export const CAPABILITY_SEARCH_NOT_FOR: Array<{ query: string; expected: string; never: string }> = [
  { query: "Cancel the order I placed today", expected: "after_sales", never: "checkout" },
  { query: "cancel a paid order", expected: "after_sales", never: "checkout" },
  { query: "I want to cancel my order before it ships", expected: "after_sales", never: "checkout" },
  { query: "Refund my order that hasn't shipped yet", expected: "after_sales", never: "checkout" },
  { query: "please refund the order, it has not shipped", expected: "after_sales", never: "checkout" },
  {
    query: "Send my kettle order to my home address instead",
    expected: "change_delivery_address",
    never: "after_sales",
  },
  {
    query: "deliver my order to my work address instead",
    expected: "change_delivery_address",
    never: "checkout",
  },
  { query: "track the order I paid for", expected: "track_shipment", never: "checkout" },
  { query: "I'd like to cancelled order refunded", expected: "after_sales", never: "checkout" },
  { query: "stop my order from shipping and refund me", expected: "after_sales", never: "checkout" },
  // "changed my mind" is no change request (played round 2 read it as change_delivery_address).
  {
    query: "I changed my mind about my order",
    expected: "after_sales",
    never: "change_delivery_address",
  },
  {
    query: "I changed my mind, I don't want the order anymore",
    expected: "after_sales",
    never: "change_delivery_address",
  },
];

/**
 * Questions about which records a change fits, as users ask them: their asking words ("which",
 * "still", "something", "anything") are no evidence of what to do. Played (issue 23): "Which of
 * my orders can I still return something from?" ranked pay_order first, on "still" and
 * "something" in its description ("what is still due on something already bought").
 */
export const CAPABILITY_SEARCH_QUESTIONS: Array<{ query: string; expected: string }> = [
  { query: "Which of my orders can I still return something from?", expected: "after_sales" },
  { query: "which orders can I still get a refund on", expected: "after_sales" },
  { query: "is there anything I could still exchange", expected: "after_sales" },
  { query: "what can I still send back", expected: "after_sales" },
  { query: "which of my orders is something still owed on", expected: "pay_order" },
  { query: "which of my orders is still unpaid", expected: "pay_order" },
  { query: "which tickets could I still reopen", expected: "reopen_ticket" },
  { query: "which of my orders can I still change the address of", expected: "change_delivery_address" },
  { query: "is there something I can still track", expected: "track_shipment" },
  { query: "which ticket should someone still take over", expected: "assign_ticket" },
  // Opening on the records' plural, which no request opens with as its verb. Played (round 16):
  // "orders I can return items from" ranked checkout first, "orders" read as the verb "order".
  { query: "orders I can return items from", expected: "after_sales" },
  { query: "orders I could still exchange something from", expected: "after_sales" },
  { query: "tickets I could still reopen", expected: "reopen_ticket" },
  { query: "orders where I can still change the address", expected: "change_delivery_address" },
];

/**
 * A record named by its title ("the change delivery address ticket", a ticket's subject): its
 * words name the record, not what is asked. Played: "Hand the change delivery address ticket from
 * Sara over to Sid." found only the capabilities of its title's words, and assign_ticket (whose
 * "Does not change status, priority or messages" the title's "change" ruled out) was cut by the
 * limit. The expected capability comes first, and is neither topic-only nor "not for" the words.
 */
export const CAPABILITY_SEARCH_RECORD_TITLES: Array<{ query: string; expected: string }> = [
  { query: "Hand the change delivery address ticket from Sara over to Sid.", expected: "assign_ticket" },
  { query: "Reassign the change delivery address ticket to Sid", expected: "assign_ticket" },
  { query: "Give the change delivery address ticket from Sara to Sid.", expected: "assign_ticket" },
  { query: "Reassign the track shipment ticket to Sid", expected: "assign_ticket" },
  { query: "Assign the priority change ticket to Bella", expected: "assign_ticket" },
  { query: "Give the status change ticket to Sara", expected: "assign_ticket" },
  { query: "Assign the urgent reopen request ticket to Bella", expected: "assign_ticket" },
  { query: "Close the cancel order ticket", expected: "close_ticket" },
  { query: "Resolve the cancel order ticket, the customer got a refund", expected: "resolve_ticket" },
  { query: "Resolve the change delivery address ticket", expected: "resolve_ticket" },
  { query: "Comment on the priority change ticket: called the customer", expected: "comment_ticket" },
];

/**
 * Words naming a record of the user's already there ("my kettle order", "the order that's waiting
 * for payment") with a verb a capability does on such records: that capability, not one that
 * makes a new record, even where a word names a field only the new record's capability takes
 * ("use a coupon"). Played (issue 23): "Pay for my kettle order from my store credit, and use a
 * coupon if one applies." started a second checkout of a kettle. `never` must rank below, at
 * less than half the expected one's score.
 */
export const CAPABILITY_SEARCH_EXISTING_RECORD: Array<{ query: string; expected: string; never: string }> = [
  {
    query: "Pay for my kettle order from my store credit, and use a coupon if one applies.",
    expected: "pay_order",
    never: "checkout",
  },
  { query: "Pay for my kettle order from my store credit", expected: "pay_order", never: "checkout" },
  {
    query: "pay the order that's waiting for payment, use a coupon if possible",
    expected: "pay_order",
    never: "checkout",
  },
  {
    query: "please pay the kettle order with my balance and a coupon code",
    expected: "pay_order",
    never: "checkout",
  },
  {
    query: "I want to pay my order now, with the coupon if it works",
    expected: "pay_order",
    never: "checkout",
  },
  { query: "pay my kettle order, use the SAVE5 coupon code", expected: "pay_order", never: "checkout" },
  // Set CP: the verb is the means ("use my balance"); what is asked is the verb its "to" opens.
  {
    query: "Use my balance to pay what's still owed on the backpack order.",
    expected: "pay_order",
    never: "checkout",
  },
  { query: "Use my store credit to pay for my kettle order", expected: "pay_order", never: "checkout" },
  // Set CO: "shipping" (a thing owed) is not the "shipped" state pay_order is not for.
  {
    query: "Pay the shipping I still owe on my backpack order, by card.",
    expected: "pay_order",
    never: "checkout",
  },
  {
    query: "pay for the kettle order with my card and a discount coupon",
    expected: "pay_order",
    never: "checkout",
  },
  {
    query: "complete the payment of my kettle order and add a coupon",
    expected: "pay_order",
    never: "checkout",
  },
  {
    query: "change the address of my kettle order and use a coupon",
    expected: "change_delivery_address",
    never: "checkout",
  },
  // The helpdesk: a note on a ticket of the user's whose words name a checkout's coupon.
  {
    query: "comment on my headphones ticket that the coupon code failed at checkout",
    expected: "comment_ticket",
    never: "checkout",
  },
  {
    query: "add a comment to the checkout ticket that the coupon code and shipping method were wrong",
    expected: "comment_ticket",
    never: "checkout",
  },
  {
    query: "add a note to my refund ticket saying the customer paid by card with a coupon",
    expected: "comment_ticket",
    never: "checkout",
  },
];
