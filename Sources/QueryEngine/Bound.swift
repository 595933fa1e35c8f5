import FirestoreModel

/// A cursor position: values for the leading normalized orderBys, and whether documents at
/// exactly that position are included.
///
/// In proto terms (`Cursor{values, before}`): `startAt` has `inclusive == before`
/// (`startAt` vs `startAfter`); `endAt` has `inclusive == !before` (`endAt` vs `endBefore`).
public struct Bound: Sendable, Equatable {
    /// Values in normalized-orderBy order; a `__name__` component is a reference value.
    public var values: [Value]
    public var inclusive: Bool

    public init(values: [Value], inclusive: Bool) {
        self.values = values
        self.inclusive = inclusive
    }
}
