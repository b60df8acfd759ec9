/// An `Encoder` that builds a ``FormValue`` tree from a value's own `Encodable` conformance.
///
/// Containers write into reference-typed slots, because a nested container is handed out
/// before its contents are written; ``FormValueEncoder/encode(_:)`` turns the slots into
/// the tree once the value is done. Scalars given to a container become tree scalars at
/// once (``FormValue/scalar(_:)``); a non-finite number throws ``FormValue/Failure``.
final class FormValueEncoder: Encoder {
    /// One place a value is written to; empty until something is.
    final class Slot {
        enum Content {
            case empty
            case value(FormValue)
            case list([Slot])
            case object([(key: String, slot: Slot)], sorted: Bool)
        }

        var content: Content = .empty

        /// The tree; an empty slot (a type that wrote nothing) is an empty object.
        var value: FormValue {
            switch content {
            case .empty: .object([])
            case .value(let value): value
            case .list(let slots): .list(slots.map(\.value))
            case .object(let members, let sorted):
                .object(
                    sorted
                        ? members.sorted { $0.key < $1.key }.map { ($0.key, $0.slot.value) }
                        : members.map { ($0.key, $0.slot.value) }
                )
            }
        }

        /// The slot's members, making it an object if it is not one yet.
        func appendMember(_ key: String, _ slot: Slot) {
            if case .object(var members, let sorted) = content {
                content = .empty  // keep `members` uniquely referenced
                members.append((key, slot))
                content = .object(members, sorted: sorted)
            } else {
                content = .object([(key, slot)], sorted: false)
            }
        }

        /// Appends a list element, making the slot a list if it is not one yet.
        func appendElement(_ slot: Slot) {
            if case .list(var slots) = content {
                content = .empty
                slots.append(slot)
                content = .list(slots)
            } else {
                content = .list([slot])
            }
        }
    }

    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let slot: Slot
    /// Whether the value is a dictionary, whose members are sorted.
    let sortsKeys: Bool

    init(slot: Slot, codingPath: [any CodingKey], sortsKeys: Bool) {
        self.slot = slot
        self.codingPath = codingPath
        self.sortsKeys = sortsKeys
    }

    /// The tree of a value that is not a scalar.
    static func encode(_ value: some Encodable) throws -> FormValue {
        let slot = Slot()
        try write(value, into: slot, codingPath: [])
        return slot.value
    }

    /// Writes a value into `slot`: a scalar at once, anything else through `encode(to:)`.
    static func write<T: Encodable>(_ value: T, into slot: Slot, codingPath: [any CodingKey]) throws {
        if let scalar = try FormValue.scalar(value) {
            slot.content = .value(scalar)
            return
        }
        let encoder = FormValueEncoder(slot: slot, codingPath: codingPath, sortsKeys: value is any UnorderedKeyedValue)
        try value.encode(to: encoder)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([], sorted: sortsKeys) }
        return KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .list = slot.content {} else { slot.content = .list([]) }
        return ListContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(slot: slot, codingPath: codingPath)
    }
}

/// The index of a list element, as a coding key.
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: FormValueEncoder.Slot
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try FormValueEncoder.write(value, into: slot, codingPath: codingPath)
    }
}

private struct ListContainer: UnkeyedEncodingContainer {
    let slot: FormValueEncoder.Slot
    var codingPath: [any CodingKey]
    var count = 0

    private mutating func next() -> (FormValueEncoder.Slot, [any CodingKey]) {
        let element = FormValueEncoder.Slot()
        slot.appendElement(element)
        defer { count += 1 }
        return (element, codingPath + [IndexKey(count)])
    }

    mutating func encodeNil() throws {
        let (element, _) = next()
        element.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (element, path) = next()
        try FormValueEncoder.write(value, into: element, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let (element, path) = next()
        return FormValueEncoder(slot: element, codingPath: path, sortsKeys: false).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (element, path) = next()
        return FormValueEncoder(slot: element, codingPath: path, sortsKeys: false).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (element, path) = next()
        return FormValueEncoder(slot: element, codingPath: path, sortsKeys: false)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: FormValueEncoder.Slot
    var codingPath: [any CodingKey]

    private func member(_ key: any CodingKey) -> FormValueEncoder.Slot {
        let member = FormValueEncoder.Slot()
        slot.appendMember(key.stringValue, member)
        return member
    }

    mutating func encodeNil(forKey key: Key) throws {
        member(key).content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try FormValueEncoder.write(value, into: member(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        FormValueEncoder(slot: member(key), codingPath: codingPath + [key], sortsKeys: false)
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormValueEncoder(slot: member(key), codingPath: codingPath + [key], sortsKeys: false).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        FormValueEncoder(slot: member(SuperKey()), codingPath: codingPath + [SuperKey()], sortsKeys: false)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormValueEncoder(slot: member(key), codingPath: codingPath + [key], sortsKeys: false)
    }
}

/// The key `super`, for `superEncoder()`.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) {}
    init?(intValue: Int) { nil }
}
