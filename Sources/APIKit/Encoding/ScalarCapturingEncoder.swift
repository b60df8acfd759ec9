/// An `Encoder` that captures a single value, or a flat list of single values, as text.
///
/// It lets enums with raw values, wrappers around scalars and arrays of them be written
/// into a query string or a form body by their own `Encodable` conformance. A keyed
/// container, or a list inside a list, is nesting that query encoding cannot express:
/// it is rejected with ``NestingRejected`` instead of being flattened into a
/// `description` dump.
final class ScalarCapturingEncoder: Encoder {
    /// Thrown, and remembered, when the value needs nesting.
    struct NestingRejected: Error {}

    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Whether the value may be a list (only at the top level).
    private let allowsList: Bool
    /// The captured texts, in order.
    private(set) var texts: [String] = []
    /// Whether the value asked for nesting; checked after `encode(to:)` returns, because
    /// a type may ask for a container and then write nothing to it.
    private(set) var rejectedNesting = false

    init(allowsList: Bool = true) {
        self.allowsList = allowsList
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        rejectedNesting = true
        return KeyedEncodingContainer(RejectingKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if !allowsList { rejectedNesting = true }
        return ListContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(encoder: self)
    }

    fileprivate func reject() -> NestingRejected {
        rejectedNesting = true
        return NestingRejected()
    }

    /// Captures one value given to a container: a scalar is appended, `nil` is skipped,
    /// anything else encodes itself and must turn out to be a single value.
    fileprivate func capture<T: Encodable>(_ value: T) throws {
        guard !rejectedNesting else { throw NestingRejected() }
        switch try ScalarText.text(forScalar: value) {
        case .text(let text): texts.append(text)
        case .absent: break
        case .notScalar:
            let element = ScalarCapturingEncoder(allowsList: false)
            try value.encode(to: element)
            guard !element.rejectedNesting, element.texts.count <= 1 else { throw reject() }
            texts += element.texts
        }
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ScalarCapturingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.capture(value) }
}

private struct ListContainer: UnkeyedEncodingContainer {
    let encoder: ScalarCapturingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count = 0

    mutating func encodeNil() throws { count += 1 }

    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        try encoder.capture(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = encoder.reject()
        return KeyedEncodingContainer(RejectingKeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = encoder.reject()
        return ListContainer(encoder: encoder)
    }

    mutating func superEncoder() -> any Encoder {
        _ = encoder.reject()
        return encoder
    }
}

/// A keyed container that rejects every value: query items cannot nest.
private struct RejectingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ScalarCapturingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { throw encoder.reject() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw encoder.reject() }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = encoder.reject()
        return KeyedEncodingContainer(RejectingKeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = encoder.reject()
        return ListContainer(encoder: encoder)
    }

    mutating func superEncoder() -> any Encoder {
        _ = encoder.reject()
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        _ = encoder.reject()
        return encoder
    }
}
