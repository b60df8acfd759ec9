/// Whether what a ``StoredFieldWalker`` says about a struct may be trusted to read its values
/// in place: the fallback decision between a ``FieldPlan`` and the Mirror walk.
///
/// The walker is checked against Mirror, the reference, on a value of the type — the same
/// properties, in the same order, under the same labels, of the same types — and against the
/// type's layout: each property lies inside the value, aligned for its type, after the one
/// before it (Swift lays out a struct's properties in declaration order). A walk that fails,
/// or that this cannot vouch for, is refused, and the type is read with Mirror: slower, never
/// a read at a wrong place.
enum FieldLayoutCheck {
    /// Why a walk was refused; tests name the rule that caught a walker.
    enum Refusal: Equatable, Error {
        /// The walker could not list the properties.
        case walkFailed
        /// It lists another number of properties than Mirror shows.
        case countDiffers(walked: Int, mirrored: Int)
        /// The property at `index` has another label than Mirror shows there.
        case labelDiffers(index: Int, walked: String, mirrored: String)
        /// The property is of another type than the value Mirror shows for it (a class
        /// reference included, that holds an instance of a subclass).
        case typeDiffers(label: String)
        /// The property would lie, wholly or partly, outside the value.
        case outOfBounds(label: String)
        /// Its offset is not a multiple of its type's alignment.
        case misaligned(label: String)
        /// It would start before the property declared before it ends.
        case overlaps(label: String)
    }

    /// A property the walker listed and this check vouched for, with its value in the sample,
    /// as Mirror read it (to check a nested configuration in turn).
    struct Vouched {
        var field: StoredField
        var value: Any
    }

    /// The stored properties of `type`, as `walker` lists them, when they agree with Mirror on
    /// `sample` and with the type's layout.
    ///
    /// - Parameters:
    ///   - type: A struct type.
    ///   - sample: A value of `type`.
    ///   - walker: What lists the properties.
    /// - Returns: The properties, in declaration order, or why the walk cannot be trusted.
    static func check(_ type: Any.Type, sample: Any, walker: StoredFieldWalker) -> Result<[Vouched], Refusal> {
        guard let fields = walker.fields(type) else { return .failure(.walkFailed) }
        let children = Array(Mirror(reflecting: sample).children)
        guard fields.count == children.count else {
            return .failure(.countDiffers(walked: fields.count, mirrored: children.count))
        }
        let size = layout(of: type).size
        var end = 0
        var vouched: [Vouched] = []
        vouched.reserveCapacity(fields.count)
        for (index, (field, child)) in zip(fields, children).enumerated() {
            let label = child.label ?? ""
            guard field.label == label else {
                return .failure(.labelDiffers(index: index, walked: field.label, mirrored: label))
            }
            // A class reference that holds a subclass's instance differs too: Mirror would ask
            // that subclass's conformances, the plan its declared type's.
            guard ObjectIdentifier(field.type) == ObjectIdentifier(Swift.type(of: child.value)) else {
                return .failure(.typeDiffers(label: label))
            }
            let fieldLayout = layout(of: field.type)
            // Nothing is ever read from a property of no size, or from a metatype, wherever the
            // walker puts it.
            if fieldLayout.size > 0, field.storage != .metatype {
                guard field.offset >= 0, field.offset <= size - fieldLayout.size else {
                    return .failure(.outOfBounds(label: label))
                }
                guard field.offset.isMultiple(of: fieldLayout.alignment) else {
                    return .failure(.misaligned(label: label))
                }
                guard field.offset >= end else { return .failure(.overlaps(label: label)) }
                end = field.offset + fieldLayout.size
            }
            vouched.append(Vouched(field: field, value: child.value))
        }
        return .success(vouched)
    }

    /// The size and alignment of `type`.
    private static func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
        func layout<T>(_: T.Type) -> (size: Int, alignment: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
        return _openExistential(type, do: layout)
    }
}
