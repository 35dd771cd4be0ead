/// One adapter registration, as `ListAdapters` gives it.
public struct AdapterRegistration: Sendable, Equatable, Codable {
    public var app: String
    public var adapter: String
    /// The unique name of the connection that registered it.
    public var owner: String
    public init(app: String, adapter: String, owner: String) {
        self.app = app
        self.adapter = adapter
        self.owner = owner
    }
}
