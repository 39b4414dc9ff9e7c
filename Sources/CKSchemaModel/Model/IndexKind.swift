/// The index kinds CloudKit offers on a field: QUERYABLE, SEARCHABLE, SORTABLE.
public enum IndexKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case queryable, searchable, sortable

    public static func < (a: IndexKind, b: IndexKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A set of index kinds, kept in the canonical order queryable, searchable, sortable.
public struct IndexKinds: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var bits: UInt8 = 0

    public init() {}
    /// The set from its three bits (queryable 1, searchable 2, sortable 4), for packed storage.
    package init(bits: UInt8) { self.bits = bits & 7 }
    /// The set as three bits, for packed storage (and the emitter's table of index lists).
    package var rawBits: UInt8 { bits }
    public init(arrayLiteral elements: IndexKind...) { for e in elements { insert(e) } }
    public init<S: Sequence>(_ elements: S) where S.Element == IndexKind { for e in elements { insert(e) } }

    private static func bit(_ k: IndexKind) -> UInt8 {
        switch k { case .queryable: 1; case .searchable: 2; case .sortable: 4 }
    }
    public func contains(_ k: IndexKind) -> Bool { bits & Self.bit(k) != 0 }
    public mutating func insert(_ k: IndexKind) { bits |= Self.bit(k) }
    public mutating func remove(_ k: IndexKind) { bits &= ~Self.bit(k) }
    public var isEmpty: Bool { bits == 0 }
    public var kinds: [IndexKind] { IndexKind.allCases.filter(contains) }
    public func makeIterator() -> IndexingIterator<[IndexKind]> { kinds.makeIterator() }
    public func subtracting(_ other: IndexKinds) -> IndexKinds { var s = IndexKinds(); s.bits = bits & ~other.bits; return s }
    public func union(_ other: IndexKinds) -> IndexKinds { var s = IndexKinds(); s.bits = bits | other.bits; return s }
    public var description: String { "[" + kinds.map(\.rawValue).joined(separator: ", ") + "]" }
}
