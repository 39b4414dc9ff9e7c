/// What CloudKit does to a record when the record a reference points to is deleted.
public enum ReferenceAction: String, Sendable, Hashable, CaseIterable, Codable {
    /// CKRecord.ReferenceAction.none
    case none
    /// CKRecord.ReferenceAction.deleteSelf: deleting the target deletes this record.
    case deleteSelf
}

/// One custom field of a record type.
///
/// Packed, because a large schema has tens of thousands (80,000 in Benchmarks/lint): the
/// type, flags, indexes and reference action share one 32-bit word, and the strings most
/// fields lack (`referenceTarget`, `description`) live out of line, so a field is 56 bytes
/// rather than 104. The properties read and write as before.
public struct Field: Sendable, Hashable {
    public var name: String
    public var origin: Origin
    /// `referenceTarget` and `description`; nil when both are (most fields).
    private var extras: Extras?
    /// The type, the flags, the indexes and the reference action (see `Bits`).
    private var bits: UInt32

    /// The rarely set strings, shared between copies and replaced, never changed, when set.
    private final class Extras: Sendable {
        let referenceTarget: String?
        let description: String?

        init(referenceTarget: String?, description: String?) {
            self.referenceTarget = referenceTarget
            self.description = description
        }

        static func make(referenceTarget: String?, description: String?) -> Extras? {
            referenceTarget == nil && description == nil ? nil : Extras(referenceTarget: referenceTarget, description: description)
        }
    }

    /// Where each part of `bits` lives.
    private enum Bits {
        static let primitive: UInt32 = 0xF          // PrimitiveType.code
        static let preferredShift: UInt32 = 4        // 0: none, else PrimitiveType.code + 1
        static let preferred: UInt32 = 0xF << 4
        static let isList: UInt32 = 1 << 8
        static let isEncrypted: UInt32 = 1 << 9
        static let isDeprecated: UInt32 = 1 << 10
        static let mayBeAbsent: UInt32 = 1 << 11
        static let indexesShift: UInt32 = 12         // IndexSet's three bits
        static let indexes: UInt32 = 7 << 12
        static let actionShift: UInt32 = 15          // 0: none declared, 1: .none, 2: .deleteSelf
        static let action: UInt32 = 3 << 15
    }

    private func flag(_ bit: UInt32) -> Bool { bits & bit != 0 }
    private mutating func set(_ bit: UInt32, _ on: Bool) { bits = on ? bits | bit : bits & ~bit }

    public var type: FieldType {
        get {
            let primitive = PrimitiveType(code: bits & Bits.primitive) ?? .string
            let pref = (bits & Bits.preferred) >> Bits.preferredShift
            return FieldType(primitive, isList: flag(Bits.isList), preferred: pref == 0 ? nil : PrimitiveType(code: pref - 1))
        }
        set {
            bits &= ~(Bits.primitive | Bits.preferred | Bits.isList)
            bits |= newValue.primitive.code
            if let p = newValue.preferred { bits |= (p.code + 1) << Bits.preferredShift }
            if newValue.isList { bits |= Bits.isList }
        }
    }

    /// Stored in `CKRecord.encryptedValues`; the server cannot read or index it.
    public var isEncrypted: Bool {
        get { flag(Bits.isEncrypted) }
        set { set(Bits.isEncrypted, newValue) }
    }

    public var indexes: IndexSet {
        get { IndexSet(bits: UInt8(truncatingIfNeeded: (bits & Bits.indexes) >> Bits.indexesShift)) }
        set { bits = (bits & ~Bits.indexes) | UInt32(newValue.rawBits) << Bits.indexesShift }
    }

    /// Retired: production can never delete a field, so it is kept and flagged where used.
    public var isDeprecated: Bool {
        get { flag(Bits.isDeprecated) }
        set { set(Bits.isDeprecated, newValue) }
    }

    /// For references (and lists of references): the record type pointed to, when known.
    public var referenceTarget: String? {
        get { extras?.referenceTarget }
        set { extras = Extras.make(referenceTarget: newValue, description: extras?.description) }
    }

    /// For references: the delete action the app uses, when declared.
    public var referenceAction: ReferenceAction? {
        get {
            switch (bits & Bits.action) >> Bits.actionShift {
            case 1: ReferenceAction.none
            case 2: .deleteSelf
            default: nil
            }
        }
        set {
            let code: UInt32 = switch newValue {
            case nil: 0
            case .none?: 1
            case .deleteSelf?: 2
            }
            bits = (bits & ~Bits.action) | code << Bits.actionShift
        }
    }

    public var description: String? {
        get { extras?.description }
        set { extras = Extras.make(referenceTarget: extras?.referenceTarget, description: newValue) }
    }

    /// CloudKit creates it only on demand (a Core Data `_ckAsset` companion, `CD_moveReceipt`):
    /// its absence on either side of a diff is not a change.
    public var mayBeAbsent: Bool {
        get { flag(Bits.mayBeAbsent) }
        set { set(Bits.mayBeAbsent, newValue) }
    }

    public init(
        name: String, type: FieldType, isEncrypted: Bool = false, indexes: IndexSet = [],
        isDeprecated: Bool = false, referenceTarget: String? = nil, referenceAction: ReferenceAction? = nil,
        description: String? = nil, origin: Origin = .unknown
    ) {
        self.name = name
        self.origin = origin
        self.extras = Extras.make(referenceTarget: referenceTarget, description: description)
        self.bits = 0
        self.type = type
        self.isEncrypted = isEncrypted
        self.indexes = indexes
        self.isDeprecated = isDeprecated
        self.referenceAction = referenceAction
    }

    /// Equal when every property but `origin` is (as when each was stored apart).
    public static func == (lhs: Field, rhs: Field) -> Bool {
        lhs.name == rhs.name && lhs.bits == rhs.bits
            && lhs.referenceTarget == rhs.referenceTarget && lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(bits)
        hasher.combine(referenceTarget)
        hasher.combine(description)
    }
}

/// The fields every record has, which a schema lists only to index them.
///
/// Source: CloudKit Schema Language, implicit system fields (`"___recordID" REFERENCE
/// QUERYABLE` is what makes `recordName` queryable).
public enum SystemField: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case createdAt, createdBy, etag, modifiedAt, modifiedBy, recordName

    /// The name the CloudKit Schema Language gives it.
    public var ckdbName: String {
        switch self {
        case .createdAt: "___createTime"
        case .createdBy: "___createdBy"
        case .etag: "___etag"
        case .modifiedAt: "___modTime"
        case .modifiedBy: "___modifiedBy"
        case .recordName: "___recordID"
        }
    }

    /// Its type in the CloudKit Schema Language.
    public var type: PrimitiveType {
        switch self {
        case .createdAt, .modifiedAt: .timestamp
        case .createdBy, .modifiedBy, .recordName: .reference
        case .etag: .string
        }
    }

    public init?(ckdbName: String) {
        guard let f = SystemField.allCases.first(where: { $0.ckdbName == ckdbName }) else { return nil }
        self = f
    }

    public static func < (a: SystemField, b: SystemField) -> Bool { a.ckdbName < b.ckdbName }
}
