/// The method of an HTTP request, such as `GET` or `POST`.
///
/// `HTTPMethod` is an open set: the common methods are static members, and any
/// other method is made from its wire form.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let custom = HTTPMethod(rawValue: "PURGE")
/// ```
///
/// A method that is not a valid HTTP token (RFC 9110, for example one that holds
/// a space) is rejected with ``BuildError/invalidMethod(_:)`` when the request
/// is built; nothing is sent.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its wire form.
    ///
    /// - Parameter rawValue: The method exactly as it is sent. Methods are case-sensitive;
    ///   the standard ones are upper case.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method's wire form.
    public var description: String { rawValue }

    /// `GET`: retrieves a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET`, without a response body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: submits data to a resource.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replaces a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: partially modifies a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: deletes a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: asks which methods and options a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`: echoes the received request.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `CONNECT`: opens a tunnel to the server.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
}
