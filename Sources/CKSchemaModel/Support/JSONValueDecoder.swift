import Foundation

extension JSONValue {
    /// Decodes a `Decodable` value from this JSON value, as `JSONDecoder` decodes it from the
    /// text: the same `DecodingError`s (a missing key, a value of another type or null, each
    /// with its coding path, a list's element named `Index N`), so a reader that parsed a file
    /// once (`parse`) does not hand its bytes to Foundation to be parsed again (the plan file).
    package func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: ValueDecoder(value: self, codingPath: []))
    }
}

/// The key of a list's element in a coding path, spelt as `JSONDecoder` spells it.
private struct ElementKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) { self.init(intValue) }
}

/// `JSONDecoder`'s errors for a value that is not what was asked for: null is a missing
/// value, anything else a mismatch.
private func wrongValue(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
    if value == .null {
        return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }
    return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
}

/// A decoder over one value at `codingPath`.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let pairs) = value else { throw wrongValue([String: Any].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(pairs: pairs, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw wrongValue([Any].self, value, codingPath) }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(value: value, codingPath: codingPath) }
}

/// An object's members. One generic `decode` serves every type the protocol names.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let pairs: [(String, JSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { pairs.contains { $0.0 == key.stringValue } }

    /// The member's decoder; a missing member is `keyNotFound`, as `JSONDecoder` says it.
    private func member(_ key: Key) throws -> ValueDecoder {
        guard let value = pairs.first(where: { $0.0 == key.stringValue })?.1 else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).value == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: member(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try member(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: pairs.first { $0.0 == "super" }?.1 ?? .null, codingPath: codingPath + [ElementKey(stringValue: "super")!])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

/// A list's elements, read in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next element's decoder (the index moves on only once it decoded).
    private func next(_ type: Any.Type) throws -> ValueDecoder {
        let path = codingPath + [ElementKey(currentIndex)]
        guard !isAtEnd else { throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end.")) }
        return ValueDecoder(value: items[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Any?.self).value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try T(from: next(type))
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try next(KeyedDecodingContainer<NestedKey>.self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try next((any UnkeyedDecodingContainer).self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try next((any Decoder).self)
        currentIndex += 1
        return decoder
    }
}

/// One value: the primitives read from it; any other type decodes itself from it.
private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let found: Any?
        switch type {
        case is Bool.Type: found = value.boolValue
        case is String.Type: found = value.stringValue
        case is Double.Type: found = value.doubleValue
        case is Float.Type: found = value.doubleValue.flatMap { abs($0) <= Double(Float.greatestFiniteMagnitude) ? Float($0) : nil }
        case let integer as any FixedWidthInteger.Type: found = value.int64Value.flatMap { Self.exactly(integer, $0) }
        default: return try T(from: ValueDecoder(value: value, codingPath: codingPath))
        }
        guard let found = found as? T else { throw wrongValue(type, value, codingPath) }
        return found
    }

    /// `v` as an integer of type `I`, nil when it does not fit.
    private static func exactly<I: FixedWidthInteger>(_ type: I.Type, _ v: Int64) -> I? { I(exactly: v) }
}
