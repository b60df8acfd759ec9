// The only file that uses the standard library's reflection SPI. `_forEachField` is not a
// stable API: everything it offers is checked here, and every type it cannot describe is
// read with Mirror instead (see `ParameterCollector`).
@_spi(Reflection) import Swift

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
/// A plan is made only for plain structs whose stored properties all have concrete types.
/// `nil` — read the value with Mirror — for classes (superclass storage), enums, types that
/// customise their Mirror (`CustomReflectable`), and any type with a property of existential
/// type (`any HeaderProtocol`, `Any`), whose conformance depends on the value held.
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
        /// Set for the built-in wrappers, which add their parameters without the protocols' arrays.
        var direct: (any DirectParameter.Type)?
        /// How to call `direct`: with concrete code for the common wrappers.
        var declarer: DirectDeclarer?
        /// Set for built-in wrappers with an `Optional` value: a `nil` is seen in place.
        var nilCheck: NilCheck?
    }

    let fields: [Field]
    /// How many fields declare headers, query items and body fields: the capacity to reserve.
    let headerCount: Int
    let queryCount: Int
    let bodyCount: Int
    let pathCount: Int
    /// The names of the type's ``Header`` fields, in order, when they pass every rule about
    /// names (``HeaderRules``) on the value the plan was made from: a request whose declared
    /// header names are the same strings skips those checks, whichever writer writes it.
    let checkedHeaderNames: CheckedKeys?
    /// The keys of the type's ``JSON`` fields, in order, when they are distinct on the value
    /// the plan was made from: a request whose keys are the same strings skips the search for
    /// duplicates, whichever writer writes it.
    let checkedJSONKeys: CheckedKeys?
    /// How to write the request straight from memory, when every field allows it.
    let direct: DirectWriting?

    /// Whether declared header names are, in order, among the ``checkedHeaderNames``: then only
    /// their values are left to check. Asked of the plan, which holds the names in place.
    @inline(__always)
    func checkedHeaderNames(cover count: Int, name: (Int) -> String) -> Bool {
        checkedHeaderNames?.coversInOrder(count: count, key: name) ?? false
    }

    /// Whether declared JSON keys are, in order, among the ``checkedJSONKeys``: then no two are
    /// the same.
    @inline(__always)
    func checkedJSONKeys(cover count: Int, key: (Int) -> String) -> Bool {
        checkedJSONKeys?.coversInOrder(count: count, key: key) ?? false
    }

    /// - Parameter sample: Where a value of the type is stored, whose header names and JSON keys
    ///   are checked.
    private init(fields: [Field], sample: UnsafeRawPointer) {
        self.fields = fields
        let names = fields.compactMap { field -> String? in
            guard case .header = field.declarer, let keyOffset = MemoryLayout<Header>.offset(of: \.key) else {
                return nil
            }
            return (sample + field.offset + keyOffset).assumingMemoryBound(to: String.self).pointee
        }
        checkedHeaderNames = HeaderRules.acceptsNames(names) ? CheckedKeys(names) : nil
        let keys = fields.compactMap { field in
            field.direct?.jsonKeyOffset.map {
                (sample + field.offset + $0).assumingMemoryBound(to: String.self).pointee
            }
        }
        checkedJSONKeys = DuplicateKeys.first(count: keys.count, key: { keys[$0] }) == nil ? CheckedKeys(keys) : nil
        direct = DirectWriting(
            fields: fields, checkedHeaderNames: checkedHeaderNames, checkedJSONKeys: checkedJSONKeys)
        headerCount = fields.count { $0.header != nil }
        queryCount = fields.count { $0.query != nil }
        bodyCount = fields.count { $0.body != nil }
        pathCount = fields.count { $0.path != nil }
    }

    /// The plan for `Configuration`, made on first use and cached; `nil` when Mirror must be
    /// used. `value` is looked at only to make the plan.
    static func plan<Configuration>(for value: Configuration) -> FieldPlan? {
        let key = ObjectIdentifier(Configuration.self)
        if let cached = cache.lookUp(key) { return cached.plan }
        // A class instance may be of a subclass; classes are read with Mirror anyway.
        let plan = Mirror(reflecting: value).displayStyle == .struct ? make(for: value) : nil
        cache.store(plan, for: key)
        return plan
    }

    /// Plans by type; the inner `nil` records that a type must be read with Mirror.
    /// Types are never unloaded, so the cache holds one entry per configuration type.
    private static let cache = Cache()

    /// Plans by type, behind a lock. Looked up on every request, so it is a plain class with
    /// its lock inline rather than a generic `Locked` closure call.
    ///
    /// `@unchecked Sendable`: `entries` is only touched with `lock` held, and the plans it
    /// hands out are never changed after they are made.
    private final class Cache: @unchecked Sendable {
        /// A cached answer: the plan, or `nil` for a type that must be read with Mirror.
        struct Entry {
            let plan: FieldPlan?
        }

        private let lock = NSLock()
        private var entries: [ObjectIdentifier: Entry] = [:]

        func lookUp(_ key: ObjectIdentifier) -> Entry? {
            lock.lock()
            defer { lock.unlock() }
            return entries[key]
        }

        func store(_ plan: FieldPlan?, for key: ObjectIdentifier) {
            lock.lock()
            defer { lock.unlock() }
            entries[key] = Entry(plan: plan)
        }
    }

    /// Describes a type the caller has found to be a struct; `nil` when it is
    /// `CustomReflectable` (Mirror would show its custom children) or not describable.
    private static func make<Configuration>(for value: Configuration) -> FieldPlan? {
        var fields: [Field] = []
        guard collectFields(of: Configuration.self, prefix: "", offset: 0, into: &fields) else { return nil }
        return withUnsafeBytes(of: value) { bytes in
            // A type with no stored properties has no address, and no fields to read.
            FieldPlan(fields: fields, sample: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
        }
    }

    /// Adds the parameter properties of the struct `type`, stored at `offset`, to `fields`;
    /// a property that is itself a struct configuration contributes its own, named
    /// `outer.inner`. `false` when the type needs Mirror.
    private static func collectFields(of type: Any.Type, prefix: String, offset: Int, into fields: inout [Field])
        -> Bool
    {
        guard #available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *) else { return false }
        guard !(type is any CustomReflectable.Type) else { return false }
        var describable = true
        let walked = _forEachField(of: type) { name, fieldOffset, fieldType, kind in
            switch kind {
            case .existential, .existentialMetatype, .opaque, .heapLocalVariable, .heapGenericLocalVariable:
                describable = false
                return false
            default:
                break
            }
            let field = Field(
                name: prefix + ParameterCollector.fieldName(fromLabel: String(cString: name)),
                offset: offset + fieldOffset,
                header: fieldType as? any HeaderProtocol.Type,
                query: fieldType as? any QueryProtocol.Type,
                body: fieldType as? any BodyProtocol.Type,
                path: fieldType as? any PathProtocol.Type,
                direct: fieldType as? any DirectParameter.Type,
                declarer: (fieldType as? any DirectParameter.Type).map(DirectDeclarer.init),
                nilCheck: (fieldType as? any DirectParameter.Type)?.nilCheck
            )
            if field.header != nil || field.query != nil || field.body != nil || field.path != nil {
                fields.append(field)
            } else if fieldType is any RequestConfiguration.Type {
                // A nested configuration: inline a struct's fields; anything else needs Mirror.
                guard kind == .struct,
                    collectFields(of: fieldType, prefix: field.name + ".", offset: field.offset, into: &fields)
                else {
                    describable = false
                    return false
                }
            }
            return true
        }
        return walked && describable
    }
}
