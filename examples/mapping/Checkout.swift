import Harvest

// A checkout flow written as one mapping function: the switch returns the next state, or nil when
// the input is not accepted in the current state (the transition fails and the state stays).
enum Checkout {
    case browsing
    case reviewingCart
    case enteringPayment
    case processing
    case confirmed
    case declined
}

enum CheckoutInput {
    case openCart
    case closeCart
    case proceed
    case submit(cardNumber: String)
    case approved(orderID: String)
    case rejected(reason: String)
    case startOver
}

let checkoutMapping = Harvester<CheckoutInput, Checkout>.Mapping { input, state in
    switch (input, state) {
    case (.openCart, .browsing):
        return .reviewingCart
    case (.closeCart, .reviewingCart), (.closeCart, .enteringPayment):
        return .browsing
    case (.proceed, .reviewingCart):
        return .enteringPayment
    case let (.submit(card), .enteringPayment) where !card.isEmpty:
        return .processing
    case (.approved, .processing):
        return .confirmed
    case (.rejected, .processing):
        return .declined
    case (.startOver, .declined), (.startOver, .confirmed):
        return .browsing
    default:
        return nil
    }
}

let checkout = Harvester(state: Checkout.browsing, inputs: checkoutInputs, mapping: checkoutMapping)
