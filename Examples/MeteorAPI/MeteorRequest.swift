// The Meteor API's requests, written the way the MeteorAPI seed (004) works: one type per endpoint
// with its `Response`, `path` and parameters; the base URL supplied by the client (MeteorClient.swift);
// requests grouped by protocol inheritance (`GetRequest`). Used by the MeteorUploadExample program and
// by Tests/ExamplesTests, which mocks the server's answers with a StubTransport.
public import APIKit

/// An endpoint of the Meteor API: MeteorAPI's `APIRequest`.
///
/// `base` is where the request goes; ``MeteorClient`` sets it to its server before sending, as
/// MeteorAPI's client supplies the base URL of requests that leave it out.
public protocol MeteorRequest: JSONDecodableRequest, RequestConfiguration where Response: Sendable {
    /// The server; ``MeteorClient`` replaces it with its own.
    var base: URL { get set }
}

extension MeteorRequest {
    /// The request is its own configuration.
    public var configuration: Self { self }
}

/// Meteor requests sent with GET: MeteorAPI's grouping by protocol inheritance.
public protocol GetRequest: MeteorRequest {}

extension GetRequest {
    /// Always GET.
    public var method: HTTPMethod { .get }
}

/// Where Meteor requests go unless a client says otherwise.
public enum Meteor {
    /// The production server.
    public static let production = URL(string: "https://api.meteor.example")!
}
