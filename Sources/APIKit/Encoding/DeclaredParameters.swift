/// The parameters a configuration declares, in declaration order, each with the
/// property it came from — the plain intermediate value between the Mirror walk
/// (``ParameterCollector``) and the serializer (``URLRequestSerializer``).
struct DeclaredParameters {
    /// A declared parameter and the name of the property that declared it.
    struct Declared<Parameter> {
        /// The property name, without the `_` of wrapper storage.
        var field: String
        var parameter: Parameter
    }

    var headers: [Declared<HeaderField>] = []
    var query: [Declared<QueryParameter>] = []
    var body: [Declared<BodyParameter>] = []
}
