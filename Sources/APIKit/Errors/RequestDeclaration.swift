import Foundation

/// What a ``RequestContext`` says of a call before its URL is known: the request type's name,
/// and the base and path as declared. Kept as values and put into words only when read: a
/// type's name and a redacted base cost more than encoding the request, and most contexts —
/// every interceptor's, on every call — are never described.
enum RequestDeclaration: Sendable, Hashable {
    /// A request type and its declared base and path.
    case declared(RequestType, base: URL, path: String)
    /// A name and a location given as text.
    case described(type: String, location: String)

    /// The name of the request type, such as `"SetPushRequest"`.
    var typeName: String {
        switch self {
        case .declared(let type, _, _): String(describing: type.type)
        case .described(let name, _): name
        }
    }

    /// The base (redacted) and the path, as an error raised before the URL exists shows them.
    var location: String {
        switch self {
        case .declared(_, let base, let path): RequestContext.redacted(base) + " + \"\(path.debugEscaped)\""
        case .described(_, let location): location
        }
    }

    /// A request type, compared by identity.
    struct RequestType: Sendable, Hashable {
        let type: any Any.Type

        static func == (lhs: Self, rhs: Self) -> Bool {
            ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(type))
        }
    }
}
