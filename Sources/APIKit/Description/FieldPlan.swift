/// Where a configuration type keeps its parameters: the offset of each stored property whose
/// type conforms to a parameter protocol, found once per type.
///
/// Mirror re-resolves every generic wrapper type by its mangled name on each access and casts
/// each value to the parameter protocols; a plan does that work once. Reading a field is then
/// a load at a fixed offset through a metatype whose protocol conformance is already known.
///
/// A plan is immutable once made, and shared by every thread that encodes the type.
///
/// A property that is itself a struct ``RequestConfiguration`` contributes its parameters,
/// inlined at their offsets and named `outer.inner`.
///
/// A plan is made only for plain structs whose stored properties all have concrete types, as
/// listed by a ``StoredFieldWalker`` that ``FieldLayoutCheck`` vouches for. `nil` — read the
/// value with Mirror — for classes (superclass storage), enums, types that customise their
/// Mirror (`CustomReflectable`), any type with a property of existential type
/// (`any HeaderProtocol`, `Any`), whose conformance depends on the value held, any type with a
/// parameter property that holds a class reference (it may be `unowned`, which only Mirror
/// loads as such), and any type whose walk is refused.
final class FieldPlan {
    /// One stored property that declares parameters.
    struct Field {
        /// The property name, without the `_` of wrapper storage.
        var name: String
        var offset: Int
        var header: (any HeaderProtocol.Type)?
        var query: (any QueryProtocol.Type)?
        var body: (any BodyProtocol.Type)?
        var path: (any PathProtocol.Type)?
        /// For a field read in place: where its wrapper keeps its key
        /// (``FieldKind/reading(_:)``); `nil` for a declared one.
        var keyOffset: Int?
        /// Whether it is a ``JSON`` field, whose key the plan checks with the others.
        var isJSONMember = false
        /// How the serializer reads it.
        var kind: FieldKind
    }

    /// A field as the serializer reads it, in one of the lists below.
    struct Item {
        var kind: FieldKind
        var offset: Int
        /// Its index in ``FieldPlan/fields``: to name the property in an error, and, for a
        /// declared field, to find what it declared (``DeclaredParameters/Declared/source``).
        var field: Int
        /// Where the wrapper keeps its key, from `offset`.
        var keyOffset: Int = 0
        /// For a header whose name is checked: whether it declares `Content-Type` or `Accept`,
        /// which the request then does not add.
        var declares = ImpliedHeader.none
        /// For a query item or form field read in place: the key of the value the plan was
        /// made from, when no byte of it needs percent-encoding. A request whose key is the
        /// same string (``CheckedKeys``) writes it as it is.
        var plainKey: CheckedKeys.Identity?

        /// The one item of each list that a configuration read with Mirror has, and of a
        /// body all of whose members were declared: everything declared.
        static let everythingDeclared = [Item(kind: .declared, offset: 0, field: -1)]

        /// Where this declared field's parameters stand in `declared`, the list of one kind:
        /// from `next`, as long as they are its own; `next` is moved past them. Fields declare
        /// in declaration order, so each field's parameters follow the previous field's.
        @inline(__always)
        func declaredRange<Parameter>(
            in declared: [DeclaredParameters.Declared<Parameter>],
            from next: inout Int
        ) -> Range<Int> {
            let start = next
            while next < declared.count, field == declared[next].source || field < 0 { next += 1 }
            return start..<next
        }
    }

    /// What the body members read in place make: nothing (there are none), one kind of body,
    /// or a conflict between two fields (indices in ``fields``).
    enum InPlaceBody {
        case none, json, form
        case conflict(Int, Int)
    }

    /// The headers a request adds unless it declares them.
    enum ImpliedHeader {
        case none, contentType, accept
    }

    let fields: [Field]
    /// The fields that declare headers, query items and body members, in declaration order.
    /// A declared field stands in each list of what its type can declare.
    let headers: [Item]
    let query: [Item]
    let body: [Item]
    /// The fields that declare path values, in declaration order.
    let path: [Item]
    /// Whether there are path values and every one is a `@PathSegment` of a `String` or an
    /// `Int`, read in place (``InPlacePathValues``). Otherwise the path is filled from what was
    /// declared: the values of such fields too, or none at all.
    let pathReadsInPlace: Bool
    /// The indices of the fields read through what they declare, in declaration order.
    let declaredFields: [Int]
    /// Whether every field is read in place: nothing is declared per request.
    let readsInPlace: Bool
    /// Whether any field declares a body member (`.declared` in ``body``).
    let declaresBody: Bool
    /// The body of a plan whose body members are all read in place, decided once.
    let inPlaceBody: InPlaceBody
    /// Whether any field declares a header (`.declared` in ``headers``).
    let declaresHeaders: Bool
    /// The names of the type's ``Header`` fields, in order, when they pass every rule about
    /// names (``HeaderRules``) on the value the plan was made from: a request whose declared
    /// header names are the same strings skips those checks.
    let checkedHeaderNames: CheckedKeys?
    /// The keys of ``Item/plainKey``, held so that their storage, and so their identity, stays
    /// theirs.
    private let plainKeys: [String]
    /// The keys of the type's ``JSON`` fields, in order, when they are distinct on the value
    /// the plan was made from: a request whose keys are the same strings skips the search for
    /// duplicates.
    let checkedJSONKeys: CheckedKeys?

    /// - Parameter sample: Where a value of the type is stored, whose header names and JSON keys
    ///   are checked.
    private init(fields: [Field], sample: UnsafeRawPointer) {
        self.fields = fields
        var headers: [Item] = []
        var query: [Item] = []
        var body: [Item] = []
        var path: [Item] = []
        var declaredFields: [Int] = []
        for (index, field) in fields.enumerated() {
            // A declared item's key offset is never read: 0 stands for none.
            var item = Item(kind: field.kind, offset: field.offset, field: index)
            item.keyOffset = field.keyOffset ?? 0
            switch field.kind.category {
            case .header: headers.append(item)
            case .query: query.append(item)
            case .jsonMember, .formField: body.append(item)
            case .pathSegment: path.append(item)
            case .declared:
                declaredFields.append(index)
                if field.header != nil { headers.append(item) }
                if field.query != nil { query.append(item) }
                if field.body != nil { body.append(item) }
                if field.path != nil { path.append(item) }
            }
        }
        pathReadsInPlace = !path.isEmpty && !path.contains { $0.kind == .declared }
        if !pathReadsInPlace {
            // The path is filled from what was declared: the in-place kinds declare theirs too.
            declaredFields = (declaredFields + path.filter { $0.kind != .declared }.map(\.field)).sorted()
        }
        let names = headers.filter { $0.kind == .header }.map {
            (sample + $0.offset + $0.keyOffset).assumingMemoryBound(to: String.self).pointee
        }
        checkedHeaderNames = HeaderRules.acceptsNames(names) ? CheckedKeys(names) : nil
        for index in headers.indices where headers[index].kind == .header {
            let name = (sample + headers[index].offset + headers[index].keyOffset)
                .assumingMemoryBound(to: String.self).pointee
            if checkedHeaderNames != nil, HTTPSyntax.namesEqual(name, "Content-Type") {
                headers[index].declares = .contentType
            }
            if checkedHeaderNames != nil, HTTPSyntax.namesEqual(name, "Accept") { headers[index].declares = .accept }
        }
        var plainKeys: [String] = []
        func markPlainKeys(_ items: inout [Item], _ category: FieldKind.Category) {
            for index in items.indices where items[index].kind.category == category {
                let key = (sample + items[index].offset + items[index].keyOffset)
                    .assumingMemoryBound(to: String.self).pointee
                guard key.utf8.allSatisfy(PercentEncoding.isUnreserved) else { continue }
                items[index].plainKey = CheckedKeys.Identity(key)
                plainKeys.append(key)
            }
        }
        markPlainKeys(&query, .query)
        markPlainKeys(&body, .formField)
        self.plainKeys = plainKeys
        let keys = fields.filter(\.isJSONMember).compactMap { field in
            field.keyOffset.map {
                (sample + field.offset + $0).assumingMemoryBound(to: String.self).pointee
            }
        }
        checkedJSONKeys = DuplicateKeys.first(count: keys.count, key: { keys[$0] }) == nil ? CheckedKeys(keys) : nil
        self.headers = headers
        self.query = query
        self.body = body
        self.path = path
        self.declaredFields = declaredFields
        readsInPlace = declaredFields.isEmpty
        declaresBody = body.contains { $0.kind == .declared }
        let inPlace = body.filter { $0.kind != .declared }
        if inPlace.isEmpty {
            inPlaceBody = .none
        } else if let other = URLRequestSerializer.firstConflict(
            count: inPlace.count, encoding: { inPlace[$0].kind.bodyEncoding ?? .json })
        {
            inPlaceBody = .conflict(inPlace[0].field, inPlace[other].field)
        } else {
            inPlaceBody = inPlace[0].kind.bodyEncoding == .formURLEncoded ? .form : .json
        }
        declaresHeaders = headers.contains { $0.kind == .declared }
    }

    /// A stand-in address for a configuration with no stored properties, or read with Mirror:
    /// never read, as such a configuration has no fields to read in place.
    static var noStorage: UnsafeRawPointer { UnsafeRawPointer(bitPattern: MemoryLayout<Int>.alignment)! }

    /// The body items of `plan`, or, without one, everything declared.
    @inline(__always)
    static func bodyItems(of plan: FieldPlan?) -> [Item] {
        guard let plan else { return Item.everythingDeclared }
        return plan.body
    }

    /// The plan for `Configuration`, made on first use and cached; `nil` when Mirror must be
    /// used. `value` is looked at only to make the plan.
    static func plan<Configuration>(for value: Configuration) -> FieldPlan? {
        let key = ObjectIdentifier(Configuration.self)
        if let cached = cache.lookUp(key) { return cached.plan }
        let plan = make(for: value)
        cache.store(plan, for: key)
        return plan
    }

    /// Describes `value`'s type, not cached; `nil` when it must be read with Mirror: it is no
    /// struct (a class instance may be of a subclass), it is `CustomReflectable` (Mirror would
    /// show its custom children), or it is not describable.
    ///
    /// - Parameter walker: What lists the type's stored properties; tests inject their own.
    static func make<Configuration>(for value: Configuration, walker: StoredFieldWalker = .standardLibrary)
        -> FieldPlan?
    {
        guard Mirror(reflecting: value).displayStyle == .struct else { return nil }
        var fields: [Field] = []
        guard collectFields(of: Configuration.self, sample: value, prefix: "", offset: 0, walker: walker, into: &fields)
        else { return nil }
        return withUnsafeBytes(of: value) { bytes in
            // A type with no stored properties has no address, and no fields to read.
            FieldPlan(fields: fields, sample: bytes.baseAddress ?? noStorage)
        }
    }

    /// Adds the parameter properties of the struct `type`, stored at `offset`, to `fields`;
    /// a property that is itself a struct configuration contributes its own, named
    /// `outer.inner`. `false` when the type needs Mirror: `walker` cannot describe it in a way
    /// ``FieldLayoutCheck`` vouches for on `sample`, one of its properties is existential, or a
    /// parameter property holds a class reference, which may be `unowned` and so must not be
    /// loaded as a strong one.
    ///
    /// - Parameter sample: A value of `type`, which Mirror reads to check the walk.
    private static func collectFields(
        of type: Any.Type,
        sample: Any,
        prefix: String,
        offset: Int,
        walker: StoredFieldWalker,
        into fields: inout [Field]
    ) -> Bool {
        guard !(type is any CustomReflectable.Type) else { return false }
        guard case .success(let stored) = FieldLayoutCheck.check(type, sample: sample, walker: walker) else {
            return false
        }
        for property in stored {
            let fieldType = property.field.type
            let isParameter =
                fieldType is any HeaderProtocol.Type || fieldType is any QueryProtocol.Type
                || fieldType is any BodyProtocol.Type || fieldType is any PathProtocol.Type
            let isConfiguration = !isParameter && fieldType is any RequestConfiguration.Type
            switch property.field.storage {
            case .structure, .value:
                break
            case .metatype:
                continue
            case .optional:
                // Never a parameter, as Mirror reads it (``ParameterCollector``); a `weak`
                // reference is one, and is never loaded.
                continue
            case .reference:
                // Read with Mirror, which loads an `unowned` reference as such.
                guard !isParameter, !isConfiguration else { return false }
                continue
            case .undescribed:
                return false
            }
            let name = prefix + ParameterCollector.fieldName(fromLabel: property.field.label)
            if isParameter {
                let reading = FieldKind.reading(fieldType)
                fields.append(
                    Field(
                        name: name,
                        offset: offset + property.field.offset,
                        header: fieldType as? any HeaderProtocol.Type,
                        query: fieldType as? any QueryProtocol.Type,
                        body: fieldType as? any BodyProtocol.Type,
                        path: fieldType as? any PathProtocol.Type,
                        keyOffset: reading.keyOffset,
                        isJSONMember: (fieldType as? any KeyedWrapper.Type)?.isJSONMember ?? false,
                        kind: reading.kind
                    ))
            } else if isConfiguration {
                // A nested configuration: inline a struct's fields; anything else needs Mirror.
                guard property.field.storage == .structure,
                    collectFields(
                        of: fieldType, sample: property.value, prefix: name + ".",
                        offset: offset + property.field.offset, walker: walker, into: &fields)
                else { return false }
            }
        }
        return true
    }
}
