public import APIKit

/// `GET /v1/user?id=...`: MeteorAPI's `UserInfoRequest`.
public struct UserInfoRequest: GetRequest {
    /// A user.
    public struct Response: Decodable, Sendable, Equatable {
        /// The user's id.
        public var id: String
        /// The user's name.
        public var name: String

        /// Creates a user, for tests.
        ///
        /// - Parameters:
        ///   - id: The user's id.
        ///   - name: The user's name.
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The user's id.
    @Query("id") public var id = ""

    /// The server; ``MeteorClient`` sets it.
    public var base = Meteor.production
    /// `v1/user`.
    public var path: String { "v1/user" }

    /// Creates the request for user `id`.
    ///
    /// - Parameter id: The user's id.
    public init(id: String) {
        self.id = id
    }
}
