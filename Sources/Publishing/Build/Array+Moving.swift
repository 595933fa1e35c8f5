extension Array {
    /// `source`'s elements, each transformed as it is moved out of `source` (taken from its end
    /// into its place) rather than copied: a copy of a document retains what it holds, a cache
    /// miss each for documents spread over a large store. `transform` gets each element's
    /// position.
    init<Source>(movingFrom source: consuming [Source], _ transform: (_ position: Int, _ element: consuming Source) -> Element) {
        var source = consume source
        let count = source.count
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            for position in (0..<count).reversed() {
                (buffer.baseAddress! + position).initialize(to: transform(position, source.removeLast()))
            }
            initialized = count
        }
    }
}
