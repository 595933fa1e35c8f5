/// The Firebase client SDKs a site's bundles must load in (pipeline.yml `clients:`).
public struct ClientPlatform: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The JavaScript SDK (browsers, Node).
    public static let web = ClientPlatform(rawValue: 1 << 0)
    /// The Android SDK.
    public static let android = ClientPlatform(rawValue: 1 << 1)
    /// The iOS (Apple platforms) SDK.
    public static let ios = ClientPlatform(rawValue: 1 << 2)
    /// Every client SDK: the default target.
    public static let all: ClientPlatform = [.web, .android, .ios]

    private static let names: [(ClientPlatform, display: String, config: String)] = [
        (.web, "web", "web"), (.android, "Android", "android"), (.ios, "iOS", "ios"),
    ]

    /// Human names joined with "and", e.g. "Android and iOS".
    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.display)
        switch names.count {
        case 0: return "no"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }

    /// The client named as in pipeline.yml (`web`, `android`, `ios`).
    public init?(configName: String) {
        guard let entry = Self.names.first(where: { $0.config == configName }) else { return nil }
        self = entry.0
    }

    /// The set from names as in pipeline.yml; nil when a name is unknown.
    public init?(configNames: [String]) {
        var clients: ClientPlatform = []
        for name in configNames {
            guard let client = ClientPlatform(configName: name) else { return nil }
            clients.insert(client)
        }
        self = clients
    }

    /// Every name pipeline.yml accepts in `clients:`.
    public static var allConfigNames: [String] { names.map(\.config) }

    /// The clients of the set as pipeline.yml names them, in a fixed order, e.g. `["web", "ios"]`.
    public var configNames: [String] {
        Self.names.filter { contains($0.0) }.map(\.config)
    }

    /// The set as written in pipeline.yml, e.g. `[web]`.
    public var configList: String {
        "[" + configNames.joined(separator: ", ") + "]"
    }
}
