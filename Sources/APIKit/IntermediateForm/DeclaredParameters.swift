/// The parameters declared per request, in declaration order, each with the property it came
/// from — the intermediate form between reading a configuration (``ParameterCollector``) and
/// writing the request (``URLRequestSerializer``), for every field the serializer does not read
/// in place (``FieldKind``).
///
/// Query and body values are held as ``DeclaredValue``: the common scalars unboxed, so that
/// a built-in wrapper declares an `Int?` without boxing it and the serializer writes it
/// without opening a box. Users' wrappers declare the public ``QueryParameter`` and
/// ``BodyParameter``, which are converted once, as they are added.
struct DeclaredParameters {
    /// A declared parameter and the name of the property that declared it.
    struct Declared<Parameter> {
        /// The property name, without the `_` of wrapper storage.
        var field: String
        var parameter: Parameter
        /// Which field declared it: its index in ``FieldPlan/fields`` when the configuration
        /// has a plan, `0` when it was read with Mirror. The serializer writes what a field
        /// declared where the field stands (``URLRequestSerializer``).
        var source = 0
    }

    /// A query item: a key and a value, or the key alone.
    struct QueryItem {
        var key: String
        /// The value; `nil` for the key alone (`?verbose`).
        var value: DeclaredValue?
        /// The field's strategy, which overrides the request's.
        var strategy: EncodingStrategy

        init(key: String, value: DeclaredValue?, strategy: EncodingStrategy = .inherit) {
            self.key = key
            self.value = value
            self.strategy = strategy
        }

        init(_ parameter: borrowing QueryParameter) {
            switch parameter.value {
            case .keyOnly: self.init(key: parameter.key, value: nil)
            case .encodable(let value):
                self.init(key: parameter.key, value: DeclaredValue(opening: value), strategy: parameter.strategy)
            }
        }
    }

    /// A body member, or a whole body: a key, a value and how the body is encoded.
    struct BodyMember {
        var key: String
        var value: DeclaredValue
        var encoding: BodyEncoding
        /// The field's strategy, which overrides the request's.
        var strategy: EncodingStrategy

        init(key: String, value: DeclaredValue, encoding: BodyEncoding, strategy: EncodingStrategy = .inherit) {
            self.key = key
            self.value = value
            self.encoding = encoding
            self.strategy = strategy
        }

        init(key: String, value: any Encodable, encoding: BodyEncoding, strategy: EncodingStrategy = .inherit) {
            self.init(key: key, value: DeclaredValue(opening: value), encoding: encoding, strategy: strategy)
        }

        init(_ parameter: borrowing BodyParameter) {
            self.init(
                key: parameter.key, value: parameter.value, encoding: parameter.encoding, strategy: parameter.strategy)
        }
    }

    /// Nothing declared: what a configuration all of whose fields are read in place declares.
    /// Shared, so that such a request makes and destroys no lists at all. `nonisolated(unsafe)`:
    /// it is a constant with no values in it, so no thread can see another's.
    nonisolated(unsafe) static let nothing = DeclaredParameters()

    /// A declared query item with its property.
    typealias Item = Declared<QueryItem>
    /// A declared body member with its property.
    typealias Member = Declared<BodyMember>

    var headers: [Declared<HeaderField>] = []
    var query: [Item] = []
    var body: [Member] = []
    var path: [Declared<PathParameter>] = []

    // A wrapper returns its items at once: room for all of them is made once, growing
    // geometrically so that many small wrappers stay linear, and each item is read in place
    // (binding an element copies its existential value). `source` is the declaring field's
    // index in the plan, `0` for a configuration read with Mirror.

    mutating func add(_ items: [HeaderField], from field: String, source: Int = 0) {
        Self.makeRoom(in: &headers, for: items.count)
        for index in items.indices { headers.append(Declared(field: field, parameter: items[index], source: source)) }
    }

    mutating func add(_ items: [QueryParameter], from field: String, source: Int = 0) {
        Self.makeRoom(in: &query, for: items.count)
        for index in items.indices {
            query.append(Declared(field: field, parameter: QueryItem(items[index]), source: source))
        }
    }

    mutating func add(_ items: [BodyParameter], from field: String, source: Int = 0) {
        Self.makeRoom(in: &body, for: items.count)
        for index in items.indices {
            body.append(Declared(field: field, parameter: BodyMember(items[index]), source: source))
        }
    }

    mutating func add(_ items: [PathParameter], from field: String, source: Int = 0) {
        Self.makeRoom(in: &path, for: items.count)
        for index in items.indices { path.append(Declared(field: field, parameter: items[index], source: source)) }
    }

    private static func makeRoom<Element>(in list: inout [Element], for count: Int) {
        let needed = list.count + count
        if list.capacity < needed { list.reserveCapacity(max(needed, 2 * list.capacity)) }
    }
}
