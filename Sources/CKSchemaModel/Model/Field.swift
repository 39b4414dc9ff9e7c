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
/// rather than 104. The properties read and write as before. The places of the `type:` and
/// `indexes:` values (where a finding about them points, docs/output.md) share the same word,
/// as offsets from the key's line, so knowing them costs a field no byte.
public struct Field: Sendable, Hashable {
    public var name: String
    public var origin: Origin
    /// `referenceTarget` and `description`; nil when both are (most fields).
    private var extras: Extras?
    /// The type, the flags, the indexes and the reference action (see `Bits`), then the
    /// places of the values, which are not part of the field's identity.
    private var bits: UInt64

    /// The rarely set strings, shared between copies and replaced, never changed, when set.
    private final class Extras: Sendable {
        let referenceTarget: String?
        let description: String?
        /// Where the `to:` value is written (line, column); (0, 0) when unknown.
        let targetLine: Int32
        let targetColumn: Int32

        init(referenceTarget: String?, description: String?, targetLine: Int32, targetColumn: Int32) {
            self.referenceTarget = referenceTarget
            self.description = description
            self.targetLine = targetLine
            self.targetColumn = targetColumn
        }

        static func make(referenceTarget: String?, description: String?, targetLine: Int32 = 0, targetColumn: Int32 = 0) -> Extras? {
            referenceTarget == nil && description == nil ? nil
                : Extras(referenceTarget: referenceTarget, description: description,
                         targetLine: referenceTarget == nil ? 0 : targetLine, targetColumn: referenceTarget == nil ? 0 : targetColumn)
        }
    }

    /// Where each part of `bits` lives.
    private enum Bits {
        static let primitive: UInt64 = 0xF          // PrimitiveType.code
        static let preferredShift: UInt64 = 4        // 0: none, else PrimitiveType.code + 1
        static let preferred: UInt64 = 0xF << 4
        static let isList: UInt64 = 1 << 8
        static let isEncrypted: UInt64 = 1 << 9
        static let isDeprecated: UInt64 = 1 << 10
        static let mayBeAbsent: UInt64 = 1 << 11
        static let indexesShift: UInt64 = 12         // IndexKinds's three bits
        static let indexes: UInt64 = 7 << 12
        static let actionShift: UInt64 = 15          // 0: none declared, 1: .none, 2: .deleteSelf
        static let action: UInt64 = 3 << 15
        /// What `==` and `hash` compare: everything above is the field; the places are not.
        static let identity: UInt64 = (1 << 17) - 1
        // The places: the value's line as an offset from the key's (4 bits), its column
        // (10 bits, 0: unknown); for `indexes:`, the width of a value written on one line
        // whose text a fix-it may replace whole (7 bits, 0: none).
        static let typePlaceShift: UInt64 = 20
        static let indexesPlaceShift: UInt64 = 34
        static let indexesWidthShift: UInt64 = 48
        static let placeMask: UInt64 = (1 << 14) - 1
        static let widthMask: UInt64 = (1 << 7) - 1
    }

    private func flag(_ bit: UInt64) -> Bool { bits & bit != 0 }
    private mutating func set(_ bit: UInt64, _ on: Bool) { bits = on ? bits | bit : bits & ~bit }

    public var type: FieldType {
        get {
            let primitive = PrimitiveType(code: UInt32(truncatingIfNeeded: bits & Bits.primitive)) ?? .string
            let pref = (bits & Bits.preferred) >> Bits.preferredShift
            return FieldType(primitive, isList: flag(Bits.isList), preferred: pref == 0 ? nil : PrimitiveType(code: UInt32(truncatingIfNeeded: pref - 1)))
        }
        set {
            bits &= ~(Bits.primitive | Bits.preferred | Bits.isList)
            bits |= UInt64(newValue.primitive.code)
            if let p = newValue.preferred { bits |= UInt64(p.code + 1) << Bits.preferredShift }
            if newValue.isList { bits |= Bits.isList }
        }
    }

    /// Stored in `CKRecord.encryptedValues`; the server cannot read or index it.
    public var isEncrypted: Bool {
        get { flag(Bits.isEncrypted) }
        set { set(Bits.isEncrypted, newValue) }
    }

    public var indexes: IndexKinds {
        get { IndexKinds(bits: UInt8(truncatingIfNeeded: (bits & Bits.indexes) >> Bits.indexesShift)) }
        set { bits = (bits & ~Bits.indexes) | UInt64(newValue.rawBits) << Bits.indexesShift }
    }

    /// Retired: production can never delete a field, so it is kept and flagged where used.
    public var isDeprecated: Bool {
        get { flag(Bits.isDeprecated) }
        set { set(Bits.isDeprecated, newValue) }
    }

    /// For references (and lists of references): the record type pointed to, when known.
    public var referenceTarget: String? {
        get { extras?.referenceTarget }
        set { extras = Extras.make(referenceTarget: newValue, description: extras?.description, targetLine: extras?.targetLine ?? 0, targetColumn: extras?.targetColumn ?? 0) }
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
            let code: UInt64 = switch newValue {
            case nil: 0
            case .none?: 1
            case .deleteSelf?: 2
            }
            bits = (bits & ~Bits.action) | code << Bits.actionShift
        }
    }

    public var description: String? {
        get { extras?.description }
        set { extras = Extras.make(referenceTarget: extras?.referenceTarget, description: newValue, targetLine: extras?.targetLine ?? 0, targetColumn: extras?.targetColumn ?? 0) }
    }

    /// CloudKit creates it only on demand (a Core Data `_ckAsset` companion, `CD_moveReceipt`):
    /// its absence on either side of a diff is not a change.
    public var mayBeAbsent: Bool {
        get { flag(Bits.mayBeAbsent) }
        set { set(Bits.mayBeAbsent, newValue) }
    }

    /// What the field's written value depends on besides `referenceTarget` and `description`:
    /// the type, the flags, the indexes and the reference action (the bits `==` compares), so
    /// a writer may reuse one field's text for another with the same key.
    /// What the value of the field at `f` depends on, when it has neither a reference target
    /// nor a description (its value text is then this key's alone), else nil: the type, the
    /// flags, the indexes and the reference action (the bits `==` compares), so a writer may
    /// reuse one field's text for another with the same key. Read in place: a getter
    /// called on `f.pointee` from another module copies the field first (its strings retained
    /// and released), once per field of a large schema's YAML.
    package static func plainValueKey(_ f: UnsafePointer<Field>) -> UInt32? {
        f.pointee.extras == nil ? UInt32(truncatingIfNeeded: f.pointee.bits & Bits.identity) : nil
    }

    // MARK: Where the values are written

    /// Where the field's type is written: the `type:` value or the shorthand's (YAML), the
    /// type token (`.ckdb`); nil when the reader did not say (a finding then points at the key).
    package var typeLocation: SourceLocation? { place(at: Bits.typePlaceShift) }

    /// Where the field's `indexes:` value starts (YAML), or its first index keyword (`.ckdb`).
    package var indexesLocation: SourceLocation? { place(at: Bits.indexesPlaceShift) }

    /// How many characters the indexes' value takes when a fix-it may replace it whole with
    /// another list: a YAML flow list or a single scalar on one line, or `.ckdb`'s run of index
    /// keywords on the field's line; nil otherwise (block lists, values over lines).
    package var indexesWidth: Int? {
        let w = Int((bits >> Bits.indexesWidthShift) & Bits.widthMask)
        return w == 0 || indexesLocation == nil ? nil : w
    }

    /// Where the `to:` value is written; nil when unknown.
    package var referenceTargetLocation: SourceLocation? {
        guard let e = extras, e.targetColumn > 0, let file = origin.location?.file else { return nil }
        return SourceLocation(file: file, line: Int(e.targetLine), column: Int(e.targetColumn))
    }

    /// Records where the type is written. A place the packing cannot hold (more than 15 lines
    /// below the key, or past column 1023) is left unknown, never approximated.
    package mutating func placeType(line: Int, column: Int) {
        setPlace(line: line, column: column, at: Bits.typePlaceShift)
    }

    /// Records where the indexes' value is written and, when a fix-it may replace it whole,
    /// its width (kept only up to 127 characters).
    package mutating func placeIndexes(line: Int, column: Int, width: Int?) {
        setPlace(line: line, column: column, at: Bits.indexesPlaceShift)
        bits &= ~(Bits.widthMask << Bits.indexesWidthShift)
        if let width, width > 0, width <= Int(Bits.widthMask), (bits >> Bits.indexesPlaceShift) & 0x3FF != 0 {
            bits |= UInt64(width) << Bits.indexesWidthShift
        }
    }

    /// Records where the `to:` value is written (set `referenceTarget` first).
    package mutating func placeReferenceTarget(line: Int, column: Int) {
        guard let e = extras, e.referenceTarget != nil else { return }
        extras = Extras.make(referenceTarget: e.referenceTarget, description: e.description,
                             targetLine: Int32(clamping: line), targetColumn: Int32(clamping: column))
    }

    private func place(at shift: UInt64) -> SourceLocation? {
        let p = (bits >> shift) & Bits.placeMask
        guard p & 0x3FF != 0, let key = origin.location else { return nil }
        return SourceLocation(file: key.file, line: key.line + Int(p >> 10), column: Int(p & 0x3FF))
    }

    private mutating func setPlace(line: Int, column: Int, at shift: UInt64) {
        bits &= ~(Bits.placeMask << shift)
        guard let keyLine = origin.knownLine, line >= keyLine, line - keyLine < 16, column > 0, column < 1024 else { return }
        bits |= (UInt64(line - keyLine) << 10 | UInt64(column)) << shift
    }

    public init(
        name: String, type: FieldType, isEncrypted: Bool = false, indexes: IndexKinds = [],
        isDeprecated: Bool = false, referenceTarget: String? = nil, referenceAction: ReferenceAction? = nil,
        description: String? = nil, origin: Origin = .unknown
    ) {
        self.name = name
        self.origin = origin
        self.extras = Extras.make(referenceTarget: referenceTarget, description: description)
        // The word in one expression, as the setters would leave it: through the setters one
        // after another it took about 270 instructions a field (an import builds 300,000).
        var bits = UInt64(type.primitive.code) | UInt64(indexes.rawBits) << Bits.indexesShift
        if let p = type.preferred { bits |= UInt64(p.code + 1) << Bits.preferredShift }
        if type.isList { bits |= Bits.isList }
        if isEncrypted { bits |= Bits.isEncrypted }
        if isDeprecated { bits |= Bits.isDeprecated }
        switch referenceAction {
        case nil: break
        case .none?: bits |= 1 << Bits.actionShift
        case .deleteSelf?: bits |= 2 << Bits.actionShift
        }
        self.bits = bits
    }

    /// Equal when every property but `origin` is (as when each was stored apart).
    public static func == (lhs: Field, rhs: Field) -> Bool {
        lhs.name == rhs.name && lhs.bits & Bits.identity == rhs.bits & Bits.identity
            && lhs.referenceTarget == rhs.referenceTarget && lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(bits & Bits.identity)
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
