import FirestoreModel
import Testing

@Suite struct MapValueMaskTests {
    private let map = MapValue([
        ("name", .string("Ada")), ("email", .string("ada@example.com")),
        ("stats", .map(MapValue([("followers", .integer(5)), ("views", .integer(9))]))),
        ("settings", .map(MapValue([("private", .boolean(true)), ("theme", .string("dark"))]))),
        ("a.b", .integer(1)),
    ])
    private func path(_ text: String) -> FieldPath { try! FieldPath(serverFormat: text) }

    @Test func keepingOnlyKeepsListedFieldsAndWhatIsUnderThem() {
        let kept = map.keepingOnly([path("name"), path("stats.followers"), path("`a.b`"), path("settings.missing"), path("name.deeper")])
        #expect(kept.fields.map(\.key) == ["a.b", "name", "stats"])
        #expect(kept["stats"] == .map(MapValue([("followers", .integer(5))])))
        #expect(map.keepingOnly([path("settings")])["settings"] == map["settings"])
        #expect(map.keepingOnly([]).isEmpty)
    }

    @Test func removingRemovesListedFieldsAndKeepsTheirMaps() {
        let removed = map.removing([path("email"), path("settings.private"), path("stats.views.deeper"), path("nothing")])
        #expect(removed.fields.map(\.key) == ["a.b", "name", "settings", "stats"])
        #expect(removed["settings"] == .map(MapValue([("theme", .string("dark"))])))
        #expect(removed["stats"] == map["stats"])
        #expect(map.removing([path("settings.private"), path("settings.theme")])["settings"] == .map(MapValue()))
    }
}
