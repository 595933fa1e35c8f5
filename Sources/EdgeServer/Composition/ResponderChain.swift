/// The responder the transport calls: the origin, wrapped by the layers in front of it.
///
/// Layers wrap outside-in: `ResponderChain(origin: o, layers: [a, b]).responder` answers with
/// `a` wrapping `b` wrapping `o`. ``serve(origin:edge:)`` is the one place that decides what
/// `bundlepress serve` runs.
public struct ResponderChain: Sendable {
    /// A layer: given the responder behind it, the responder that wraps it.
    public struct Layer: Sendable {
        let wrap: @Sendable (any Responder) -> any Responder

        /// Creates a layer from the function that wraps the next responder.
        public init(_ wrap: @escaping @Sendable (any Responder) -> any Responder) {
            self.wrap = wrap
        }
    }

    /// The composed responder.
    public let responder: any Responder

    /// Wraps `origin` in `layers`, the first outermost.
    public init(origin: some Responder, layers: [Layer] = []) {
        var responder: any Responder = origin
        for layer in layers.reversed() {
            responder = layer.wrap(responder)
        }
        self.responder = responder
    }

    /// The chain `bundlepress serve` runs: conditional requests and ranges in front of the
    /// simulated edge cache (left out when `edge` is nil: `--no-edge`) in front of the origin.
    public static func serve(origin: some Responder, edge: EdgeConfiguration?) -> ResponderChain {
        var layers = [Layer { ConditionalResponder(wrapping: $0) }]
        if let edge {
            layers.append(Layer { EdgeCache(origin: $0, configuration: edge) })
        }
        return ResponderChain(origin: origin, layers: layers)
    }
}
