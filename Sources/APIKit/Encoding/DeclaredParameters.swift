/// The parameters a configuration declares, in declaration order, each with the
/// property it came from — the plain intermediate value between reading the configuration
/// (``ParameterCollector``) and writing the request (``URLRequestSerializer``).
struct DeclaredParameters {
    /// A declared parameter and the name of the property that declared it.
    struct Declared<Parameter> {
        /// The property name, without the `_` of wrapper storage.
        var field: String
        var parameter: Parameter
        /// Set by the field plan for a `nil` body member that the strategies leave out: it
        /// writes nothing, but still counts in the declaration checks (``NilCheck``).
        var isOmitted = false
    }

    /// The request's nil strategy, which decides, with the field's, whether a built-in wrapper
    /// holding `nil` declares it or skips it (``ResolvedStrategy/nils(field:request:)``). Only a
    /// shortcut: the serializer omits `nil` values by the same rule.
    var requestNils: NilEncoding?

    var headers: [Declared<HeaderField>] = []
    var query: [Declared<QueryParameter>] = []
    var body: [Declared<BodyParameter>] = []
    var path: [Declared<PathParameter>] = []

    mutating func add(_ items: [HeaderField], from field: String) {
        for item in items { headers.append(Declared(field: field, parameter: item)) }
    }

    mutating func add(_ items: [QueryParameter], from field: String) {
        for item in items { query.append(Declared(field: field, parameter: item)) }
    }

    mutating func add(_ items: [BodyParameter], from field: String) {
        for item in items { body.append(Declared(field: field, parameter: item)) }
    }

    mutating func add(_ items: [PathParameter], from field: String) {
        for item in items { path.append(Declared(field: field, parameter: item)) }
    }
}
