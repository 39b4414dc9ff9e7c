import Foundation

/// A CloudKit field's value type, as the CloudKit Schema Language names them.
///
/// Source: CloudKit Schema Language, "data-type" (Apple, "Integrating a Text-Based
/// Schema into Your Workflow"); CKRecord "Supported Data Types".
public enum PrimitiveType: String, Sendable, Hashable, CaseIterable, Codable {
    case string, int64, double, bytes, timestamp, location, reference, asset
    /// CKDB's legacy `NUMBER [PREFERRED AS INT64|DOUBLE]`: read, flagged by lint.
    case number

    /// The upper-case keyword of the CloudKit Schema Language.
    public var ckdbKeyword: String { rawValue.uppercased() }

    /// A small number for packed storage (`Field`, validate's type tags): the case's position.
    package var code: UInt32 {
        switch self {
        case .string: 0
        case .int64: 1
        case .double: 2
        case .bytes: 3
        case .timestamp: 4
        case .location: 5
        case .reference: 6
        case .asset: 7
        case .number: 8
        }
    }

    /// The case of a `code`; nil for any other number.
    @inline(__always) package init?(code: UInt32) {
        switch code {
        case 0: self = .string
        case 1: self = .int64
        case 2: self = .double
        case 3: self = .bytes
        case 4: self = .timestamp
        case 5: self = .location
        case 6: self = .reference
        case 7: self = .asset
        case 8: self = .number
        default: return nil
        }
    }
}

/// A field's type: a primitive or a list of one primitive.
public struct FieldType: Sendable, Hashable, CustomStringConvertible {
    public var primitive: PrimitiveType
    public var isList: Bool
    /// For `number` only: `PREFERRED AS INT64|DOUBLE` (nil when not given).
    public var preferred: PrimitiveType?

    public init(_ primitive: PrimitiveType, isList: Bool = false, preferred: PrimitiveType? = nil) {
        self.primitive = primitive
        self.isList = isList
        self.preferred = preferred
    }

    public static func list(_ p: PrimitiveType) -> FieldType { FieldType(p, isList: true) }

    /// The YAML spelling: `string`, `list<string>`, `number`, `number<int64>`.
    public var description: String {
        var base = primitive.rawValue
        if let preferred { base += "<\(preferred.rawValue)>" }
        return isList ? "list<\(base)>" : base
    }

    /// Every canonical spelling, for a lookup without string work (loading is hot).
    package static let spellings: [String: FieldType] = {
        var table: [String: FieldType] = [:]
        for p in PrimitiveType.allCases {
            table[p.rawValue] = FieldType(p)
            table["list<\(p.rawValue)>"] = FieldType(p, isList: true)
        }
        for pref in [PrimitiveType.int64, .double] {
            table["number<\(pref.rawValue)>"] = FieldType(.number, preferred: pref)
            table["list<number<\(pref.rawValue)>>"] = FieldType(.number, isList: true, preferred: pref)
        }
        return table
    }()

    /// Parses the YAML spelling; nil when it is not a type.
    /// CloudKit's type for a Swift or Core Data type name written where a field type goes
    /// (`Date` -> `timestamp`, `[asset]` -> `list<asset>`), for a did-you-mean hint; nil when
    /// the name is none of them. The mapping is what a CKRecord value of that Swift type is
    /// (CKRecordValue: NSString, NSNumber, NSData, NSDate, CLLocation, CKAsset, CKRecord.Reference),
    /// and what Core Data mirroring writes (Boolean and integers as INT64, URL and UUID as STRING).
    public static func cloudKitSpelling(ofSwiftType text: String) -> String? {
        var t = Substring(text)
        var list = false
        if t.hasPrefix("["), t.hasSuffix("]") { t = t.dropFirst().dropLast(); list = true }
        else if t.hasPrefix("Array<"), t.hasSuffix(">") { t = t.dropFirst(6).dropLast(); list = true }
        let scalar: String
        switch t {
        case "Date", "NSDate": scalar = "timestamp"
        case "Data", "NSData", "Binary", "Transformable": scalar = "bytes"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "Bool", "Boolean", "Integer", "NSNumber", "int", "integer", "bool", "boolean", "long":
            scalar = "int64"
        case "Double", "Float", "CGFloat", "float", "Decimal": scalar = t == "Decimal" ? "string" : "double"
        case "String", "NSString", "URL", "UUID", "Character", "str", "text": scalar = "string"
        case "CLLocation": scalar = "location"
        case "CKAsset": scalar = "asset"
        case "CKRecord.Reference", "CKReference", "Reference": scalar = "reference"
        default:
            // `[asset]`: a CloudKit type in Swift's list syntax.
            guard list, let p = PrimitiveType(rawValue: String(t)) else { return nil }
            scalar = p.rawValue
        }
        return list ? "list<\(scalar)>" : scalar
    }

    public init?(parsing text: String) {
        if let known = Self.spellings[text] { self = known; return }
        var t = text.trimmingCharacters(in: .whitespaces).lowercased()
        var list = false
        if t.hasPrefix("list<"), t.hasSuffix(">") {
            list = true
            t = String(t.dropFirst(5).dropLast())
        }
        var preferred: PrimitiveType?
        if t.hasPrefix("number<"), t.hasSuffix(">") {
            let inner = String(t.dropFirst(7).dropLast())
            guard let p = PrimitiveType(rawValue: inner), p == .int64 || p == .double else { return nil }
            preferred = p
            t = "number"
        }
        guard let p = PrimitiveType(rawValue: t) else { return nil }
        self.init(p, isList: list, preferred: preferred)
    }
}
