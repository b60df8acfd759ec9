// The only file that uses the standard library's reflection SPI. `_forEachField` is not a
// stable API: what it reports is checked against Mirror and the type's layout before a plan
// reads anything where it says (`FieldLayoutCheck`), and a type it cannot describe, or
// describes otherwise than Mirror, is read with Mirror.
@_spi(Reflection) import Swift

/// One stored property of a struct, as a ``StoredFieldWalker`` reports it.
struct StoredField {
    /// How the property's value is held where it is stored: what a load of its declared type
    /// at its offset may assume.
    enum Storage: Equatable {
        /// A struct, stored inline.
        case structure
        /// Any other value stored inline: an enum, a tuple, a function.
        case value
        /// A metatype: of no size where its type is known when compiling (`Int.Type`), though
        /// its type's layout says otherwise, and the walk may put it anywhere. Never a
        /// parameter, never read.
        case metatype
        /// An `Optional`, which no parameter rule counts. A `weak` reference is always one,
        /// stored as a reference to a side table, never as the object.
        case optional
        /// A class reference: strong, `unowned` or `unowned(unsafe)`, which the walk does not
        /// tell apart. Only a strong one may be loaded as a strong reference.
        case reference
        /// An existential (whose conformances depend on the value held) or a kind the walk
        /// cannot describe.
        case undescribed
    }

    /// The property's name as Mirror labels it: `_name` for wrapper storage.
    var label: String
    /// Where the property is stored, in bytes from the start of the value.
    var offset: Int
    /// Its declared type.
    var type: Any.Type
    var storage: Storage
}

/// Lists the stored properties of a struct type, in declaration order.
///
/// The plan reads through ``standardLibrary``; tests inject walkers that fail or lie, and
/// require that the type is then read with Mirror.
struct StoredFieldWalker: Sendable {
    /// The stored properties of a struct type; `nil` when they cannot be listed.
    let fields: @Sendable (Any.Type) -> [StoredField]?

    /// The standard library's `_forEachField`; `nil` on a platform without it, or when it
    /// gives up on the type.
    static let standardLibrary = StoredFieldWalker { type in
        guard #available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *) else { return nil }
        var fields: [StoredField] = []
        let walked = _forEachField(of: type) { name, offset, fieldType, kind in
            fields.append(
                StoredField(label: String(cString: name), offset: offset, type: fieldType, storage: storage(of: kind)))
            return true
        }
        return walked ? fields : nil
    }

    @available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *)
    private static func storage(of kind: _MetadataKind) -> StoredField.Storage {
        switch kind {
        case .struct: .structure
        case .enum, .tuple, .function: .value
        case .metatype: .metatype
        case .optional: .optional
        case .class, .foreignClass, .objcClassWrapper: .reference
        case .existential, .existentialMetatype, .opaque, .heapLocalVariable, .heapGenericLocalVariable, .errorObject,
            .unknown:
            .undescribed
        @unknown default: .undescribed
        }
    }
}
