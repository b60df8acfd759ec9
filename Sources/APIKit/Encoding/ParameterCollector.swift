/// Walks a configuration with `Mirror` and collects the parameters its properties declare.
///
/// The rules, pinned by `ParameterCollectorTests`:
/// - wrapper storage shows up as `_name`; the one leading `_` is stripped to name the field;
/// - a property counts when its value conforms to ``HeaderProtocol``, ``QueryProtocol`` or
///   ``BodyProtocol`` (one value may conform to several);
/// - every other property is ignored, and so is `lazy` storage (which Mirror shows as an
///   `Optional` under a `$__lazy_storage_$_` label and which would otherwise be unwrapped by
///   the dynamic cast); computed properties are not in Mirror at all;
/// - for a class, superclass properties come first, as declared.
enum ParameterCollector {
    static func collect(from configuration: Any) -> DeclaredParameters {
        var parameters = DeclaredParameters()
        collect(Mirror(reflecting: configuration), into: &parameters)
        return parameters
    }

    private static let lazyStoragePrefix = "$__lazy_storage_$_"

    private static func collect(_ mirror: Mirror, into parameters: inout DeclaredParameters) {
        if let superclassMirror = mirror.superclassMirror {
            collect(superclassMirror, into: &parameters)
        }
        for (index, child) in mirror.children.enumerated() {
            let label = child.label ?? "#\(index)"
            if label.hasPrefix(lazyStoragePrefix) { continue }
            let field = label.hasPrefix("_") ? String(label.dropFirst()) : label
            let value = child.value
            if let header = value as? any HeaderProtocol {
                for item in header.headerFields {
                    parameters.headers.append(.init(field: field, parameter: item))
                }
            }
            if let query = value as? any QueryProtocol {
                for item in query.queryParameters {
                    parameters.query.append(.init(field: field, parameter: item))
                }
            }
            if let body = value as? any BodyProtocol {
                for item in body.bodyParameters {
                    parameters.body.append(.init(field: field, parameter: item))
                }
            }
        }
    }
}
