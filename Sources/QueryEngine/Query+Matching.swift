import FirestoreModel

extension Query {
    /// The collection a shallow query reads: `parent/collectionID`.
    public var collectionPath: ResourcePath {
        parent.appending(collectionID)
    }

    /// True when a document at `path` is in the query's scope (JS
    /// `queryMatchesPathAndCollectionGroup`): for a collection group, any document whose
    /// collection ID is ``collectionID`` at any depth under ``parent``; otherwise a document
    /// directly in ``collectionPath``.
    public func matchesPath(_ path: ResourcePath) -> Bool {
        guard path.isDocument else { return false }
        if allDescendants {
            return UTF8Order.equal(path.segments[path.count - 2], collectionID) && parent.isPrefix(of: path)
        }
        return collectionPath.isImmediateParent(of: path)
    }

    /// True when `document` is a result of the query before its limit is applied (JS
    /// `queryMatches`): in scope, has every normalized orderBy field, passes the filters and
    /// lies within the cursors.
    /// `database` is the one the document belongs to (`__name__` compared with non-reference
    /// cursor values orders as a reference of it).
    public func matches(_ document: Document, in database: DatabaseID) -> Bool {
        QueryMatcher(self, database: database).matches(document)
    }
}
