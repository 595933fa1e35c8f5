import FirestoreModel

extension Filter {
    /// True when `document` passes the filter, exactly as the client's `Filter.matches`
    /// (firebase-js-sdk `core/filter.ts`):
    /// - `==`, `<`, `<=`, `>`, `>=` need the field, of the same type class as the value, to
    ///   compare accordingly in ``Value/compare(_:_:)`` (so `== 1` matches `1.0`, `< 1` matches NaN);
    /// - `!=` needs the field, not null, comparing unequal (any type);
    /// - `in`, `not-in`, `array-contains`, `array-contains-any` use strict equality (`==` on
    ///   ``Value``); `not-in` never matches when its list holds null, nor a null or missing field;
    /// - `__name__` filters compare the document key with ``ResourcePath/compare(_:_:)``.
    public func matches(_ document: Document) -> Bool {
        switch self {
        case .field(let field, let op, let value):
            return Self.matches(document, field, op, value)
        case .unary(let field, let op):
            let (fieldOp, value) = op.fieldFilterEquivalent
            return Self.matches(document, field, fieldOp, value)
        case .composite(.and, let filters):
            return filters.allSatisfy { $0.matches(document) }
        case .composite(.or, let filters):
            return filters.contains { $0.matches(document) }
        }
    }

    private static func matches(_ document: Document, _ field: FieldPath, _ op: Operator, _ value: Value) -> Bool {
        if field.isDocumentKey {
            return matchesKey(document.path, op, value)
        }
        let stored = document.fields.value(at: field)
        switch op {
        case .arrayContains:
            guard case .array(let elements)? = stored else { return false }
            return elements.contains(value)
        case .arrayContainsAny:
            guard case .array(let elements)? = stored else { return false }
            let wanted = value.listElements
            return elements.contains { wanted.contains($0) }
        case .in:
            guard let stored else { return false }
            return value.listElements.contains(stored)
        case .notIn:
            let excluded = value.listElements
            guard !excluded.contains(.null), let stored, !stored.isNull else { return false }
            return !excluded.contains(stored)
        case .notEqual:
            guard let stored, !stored.isNull else { return false }
            return Value.compare(stored, value) != .equal
        case .lessThan, .lessThanOrEqual, .equal, .greaterThan, .greaterThanOrEqual:
            guard let stored, stored.typeOrder == value.typeOrder else { return false }
            return op.accepts(Value.compare(stored, value))
        }
    }

    /// `KeyFieldFilter`, `KeyFieldInFilter`, `KeyFieldNotInFilter`: values are reference values
    /// whose project and database are ignored.
    private static func matchesKey(_ path: ResourcePath, _ op: Operator, _ value: Value) -> Bool {
        switch op {
        case .in:
            return value.listElements.contains { $0.isReference(to: path) }
        case .notIn:
            return !value.listElements.contains { $0.isReference(to: path) }
        case .arrayContains, .arrayContainsAny:
            // The clients cannot evaluate these on a key; QueryValidator rejects them.
            return false
        case .lessThan, .lessThanOrEqual, .equal, .notEqual, .greaterThan, .greaterThanOrEqual:
            guard case .reference(let name) = value else { return false }
            return op.accepts(ResourcePath.compare(path, name.path))
        }
    }
}

extension Filter.Operator {
    /// Whether a stored value ordered `ordering` against the filter value passes a comparison
    /// operator (JS `matchesComparison`).
    func accepts(_ ordering: Ordering) -> Bool {
        switch self {
        case .lessThan: return ordering == .less
        case .lessThanOrEqual: return ordering != .greater
        case .equal: return ordering == .equal
        case .notEqual: return ordering != .equal
        case .greaterThan: return ordering == .greater
        case .greaterThanOrEqual: return ordering != .less
        case .arrayContains, .arrayContainsAny, .in, .notIn: return false
        }
    }
}

extension Value {
    /// The elements of an array value (the list of `in`, `not-in`, `array-contains-any`);
    /// empty for any other value.
    var listElements: [Value] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// True for a reference value naming the document at `path` in document-key order
    /// (project and database ignored, as `DocumentKey.fromName` does).
    func isReference(to path: ResourcePath) -> Bool {
        guard case .reference(let name) = self else { return false }
        return ResourcePath.compare(name.path, path) == .equal
    }
}
