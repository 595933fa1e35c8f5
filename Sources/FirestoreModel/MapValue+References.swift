extension MapValue {
    /// The first reference value (depth first, in key order) that is not in `database`: iOS
    /// and Python reject bundles holding one.
    public func firstReference(outside database: DatabaseID) -> ResourceName? {
        for field in fields {
            if let found = field.value.firstReference(outside: database) { return found }
        }
        return nil
    }
}

extension Value {
    public func firstReference(outside database: DatabaseID) -> ResourceName? {
        switch self {
        case .reference(let name):
            return name.database == database ? nil : name
        case .array(let values):
            for value in values {
                if let found = value.firstReference(outside: database) { return found }
            }
            return nil
        case .map(let map):
            return map.firstReference(outside: database)
        default:
            return nil
        }
    }
}
