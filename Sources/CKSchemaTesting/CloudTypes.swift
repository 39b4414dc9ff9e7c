import Foundation

/// A field's value, in CloudKit's vocabulary (`CKRecordValue`'s kinds), as a value type.
public enum CloudValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    /// `CKRecord.Reference.Action`.
    public enum ReferenceAction: String, Sendable, Equatable {
        case none
        case deleteSelf
    }

    case string(String)
    case int64(Int64)
    case double(Double)
    case timestamp(Date)
    case bytes(Data)
    case location(latitude: Double, longitude: Double)
    case reference(recordName: String, action: ReferenceAction)
    /// A reference whose target is named with its zone (`CKRecord.Reference(recordID:action:)`
    /// with the ID's zone): in the record's own zone it is `.reference`; into another zone
    /// CloudKit refuses it (a reference and its target share a zone), and so does the fake
    /// (CK408, invalidArguments 12). Records read back carry `.reference`.
    case referenceInZone(recordName: String, zoneName: String, action: ReferenceAction)
    case asset(URL)
    case list([CloudValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int64(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    /// CloudKit stores a Bool as an INT64 of 0 or 1.
    public init(booleanLiteral value: Bool) { self = .int64(value ? 1 : 0) }
    public init(arrayLiteral elements: CloudValue...) { self = .list(elements) }
}

/// One record as a value type: `CKRecord`'s type, ID, values and system fields.
public struct CloudRecord: Sendable, Equatable {
    /// `CKRecord.ID`: a record name in a zone of an owner.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        public var recordName: String
        public var zoneName: String
        /// `CKCurrentUserDefaultName` unless the zone is shared with the current user.
        public var ownerName: String

        public init(recordName: String, zoneName: String = CloudZone.defaultName, ownerName: String = CloudZone.currentUser) {
            self.recordName = recordName
            self.zoneName = zoneName
            self.ownerName = ownerName
        }

        public var description: String { "\(recordName) in \(zoneName)" }
    }

    /// `record.encryptedValues`: the values CloudKit encrypts end to end.
    public struct EncryptedValues: Sendable, Equatable {
        var values: [String: CloudValue] = [:]
        public subscript(key: String) -> CloudValue? {
            get { values[key] }
            set { values[key] = newValue }
        }
        public var keys: [String] { values.keys.sorted() }
    }

    public var id: ID
    public var recordType: String
    /// Set by the server on every save; nil on a record never saved.
    public internal(set) var recordChangeTag: String?
    public internal(set) var creationDate: Date?
    public internal(set) var modificationDate: Date?
    var values: [String: CloudValue] = [:]
    public var encrypted = EncryptedValues()

    public init(recordType: String, recordName: String = UUID().uuidString, zoneName: String = CloudZone.defaultName) {
        self.id = ID(recordName: recordName, zoneName: zoneName)
        self.recordType = recordType
    }

    public init(recordType: String, id: ID) {
        self.id = id
        self.recordType = recordType
    }

    /// A plain (not encrypted) value; setting nil removes the key.
    public subscript(key: String) -> CloudValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// The plain keys, sorted.
    public var allKeys: [String] { values.keys.sorted() }

    /// The record with the server's system fields (what a CKRecord's `encodeSystemFields` keeps).
    public mutating func setSystemFields(changeTag: String?, created: Date?, modified: Date?) {
        recordChangeTag = changeTag
        creationDate = created
        modificationDate = modified
    }
}

/// `CKRecordZone`: a name and its capabilities.
public struct CloudZone: Sendable, Hashable {
    /// `CKRecordZone.Capabilities`.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let fetchChanges = Capabilities(rawValue: 1 << 0)
        public static let atomic = Capabilities(rawValue: 1 << 1)
        public static let sharing = Capabilities(rawValue: 1 << 2)
    }

    /// `CKRecordZone.ID.defaultZoneName`.
    public static let defaultName = "_defaultZone"
    /// `CKCurrentUserDefaultName`.
    public static let currentUser = "__defaultOwner__"

    public var name: String
    public var capabilities: Capabilities

    public init(name: String, capabilities: Capabilities = [.fetchChanges, .atomic]) {
        self.name = name
        self.capabilities = capabilities
    }
}

/// `CKModifyRecordsOperation.RecordSavePolicy`.
public enum SavePolicy: Sendable, Hashable {
    /// Saving over an existing record needs its current change tag (else serverRecordChanged).
    case ifServerRecordUnchanged
    /// Writes only the keys the record has; the server's other keys stay.
    case changedKeys
    /// Replaces every key with the record's.
    case allKeys
}

/// `CKQuery`: a record type, an NSPredicate format string with its arguments, sort descriptors.
public struct CloudQuery: Sendable {
    public var recordType: String
    public var predicate: String
    public var arguments: [CloudValue]
    public var sortedBy: [(key: String, ascending: Bool)]

    public init(recordType: String, predicate: String = "TRUEPREDICATE", arguments: [CloudValue] = [], sortedBy: [(key: String, ascending: Bool)] = []) {
        self.recordType = recordType
        self.predicate = predicate
        self.arguments = arguments
        self.sortedBy = sortedBy
    }
}

/// `CKQueryOperation.Cursor`: where the next page of a query starts.
public struct CloudQueryCursor: Sendable {
    let query: CloudQuery
    let zone: String?
    let offset: Int
    let limit: Int?
    let database: CloudDatabaseScope
}

/// `CKServerChangeToken`: opaque; it belongs to one zone of one database.
public struct CloudChangeToken: Sendable, Hashable {
    let zone: String
    let database: CloudDatabaseScope
    /// The zone's incarnation when the token was issued: a zone deleted since expires it.
    let epoch: Int
    /// The store's token (nil: from the beginning) and how many changes after it were given.
    let storeToken: String?
    let skip: Int
}

/// `CKDatabase.Scope`.
public enum CloudDatabaseScope: String, Sendable, Hashable {
    case `public`, `private`, shared
}

/// `CKSubscription`: a query, zone or database subscription.
public struct CloudSubscription: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `CKQuerySubscription`: records of a type matching a predicate, on the events given.
        case query(recordType: String, predicate: String, firesOn: Set<Event>)
        /// `CKRecordZoneSubscription`.
        case zone(String)
        /// `CKDatabaseSubscription`.
        case database
    }

    /// `CKQuerySubscription.Options`.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case create, update, delete
    }

    public var id: String
    public var kind: Kind

    public init(id: String, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// One notification a subscription fired (`CKNotification`).
public struct CloudNotification: Sendable, Equatable {
    public var subscriptionID: String
    /// `CKQueryNotification.Reason` for a query subscription ("recordCreated", ...), else the
    /// notification type ("recordZone", "database").
    public var reason: String
    public var recordID: CloudRecord.ID?
    public var zoneName: String?
}

/// An error as CloudKit gives it: `CKError`'s code, the server's code and words, and the
/// records and hints CloudKit puts in its userInfo.
public struct CloudKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `CKError.Code`: each raw value is the SDK's (CKError.h; learn.microsoft.com's
    /// CloudKit.CKErrorCode table lists the same numbers).
    public enum Code: Int, Sendable, Hashable {
        case internalError = 1
        case partialFailure = 2
        case networkUnavailable = 3
        case networkFailure = 4
        case badContainer = 5
        case serviceUnavailable = 6
        case requestRateLimited = 7
        case missingEntitlement = 8
        case notAuthenticated = 9
        case permissionFailure = 10
        case unknownItem = 11
        case invalidArguments = 12
        case resultsTruncated = 13
        case serverRecordChanged = 14
        case serverRejectedRequest = 15
        case assetFileNotFound = 16
        case assetFileModified = 17
        case incompatibleVersion = 18
        case constraintViolation = 19
        case operationCancelled = 20
        case changeTokenExpired = 21
        case batchRequestFailed = 22
        case zoneBusy = 23
        case badDatabase = 24
        case quotaExceeded = 25
        case zoneNotFound = 26
        case limitExceeded = 27
        case userDeletedZone = 28
        case tooManyParticipants = 29
        case alreadyShared = 30
        case referenceViolation = 31
    }

    public var code: Code
    /// CloudKit's server error code where it has one (2006: a field or type production
    /// lacks; 2015: a query on a field without the index it needs).
    public var serverCode: Int?
    /// CloudKit's own text.
    public var message: String
    public var serverRecord: CloudRecord?
    public var clientRecord: CloudRecord?
    public var ancestorRecord: CloudRecord?
    /// `CKErrorRetryAfterKey`.
    public var retryAfterSeconds: Double?
    /// `CKPartialErrorsByItemIDKey` (partialFailure).
    public var partialErrors: [CloudRecord.ID: CloudKitError]?
    /// The ckschema rule that refused it, where one did (CK402, CK740, ...), for a test that
    /// wants to know which rule spoke.
    public var rule: String?

    public init(_ code: Code, serverCode: Int? = nil, _ message: String, retryAfterSeconds: Double? = nil, rule: String? = nil) {
        self.code = code
        self.serverCode = serverCode
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
        self.rule = rule
    }

    public var description: String {
        "CKError \(code.rawValue) (\(code))" + (serverCode.map { "/\($0)" } ?? "") + ": " + message
    }

    /// The partialFailure (2) CKModifyRecordsOperation's completion gives for per-item
    /// errors, with each in `partialErrors`; nil when every item succeeded.
    public static func partialFailure(saveResults: [CloudRecord.ID: Result<CloudRecord, CloudKitError>],
                                      deleteResults: [CloudRecord.ID: Result<Void, CloudKitError>] = [:]) -> CloudKitError? {
        var errors: [CloudRecord.ID: CloudKitError] = [:]
        for (id, r) in saveResults { if case .failure(let e) = r { errors[id] = e } }
        for (id, r) in deleteResults { if case .failure(let e) = r { errors[id] = e } }
        guard !errors.isEmpty else { return nil }
        var e = CloudKitError(.partialFailure, "Failed to modify some records")
        e.partialErrors = errors
        return e
    }
}

/// A failure a test asks for (`FakeCloudKit.inject`), thrown with exactly CloudKit's shape.
public enum CloudFault: Sendable, Hashable {
    case requestRateLimited(retryAfter: Double)
    case zoneBusy(retryAfter: Double)
    case serviceUnavailable(retryAfter: Double)
    case quotaExceeded
    case networkFailure
    case notAuthenticated
    case userDeletedZone
    case changeTokenExpired
    case serverRecordChanged

    var error: CloudKitError {
        switch self {
        case .requestRateLimited(let s): CloudKitError(.requestRateLimited, "Request Rate Limited", retryAfterSeconds: s)
        case .zoneBusy(let s): CloudKitError(.zoneBusy, "Zone busy", retryAfterSeconds: s)
        case .serviceUnavailable(let s): CloudKitError(.serviceUnavailable, "Service Unavailable", retryAfterSeconds: s)
        case .quotaExceeded: CloudKitError(.quotaExceeded, "Quota exceeded")
        case .networkFailure: CloudKitError(.networkFailure, "The network connection was lost.")
        case .notAuthenticated: CloudKitError(.notAuthenticated, "No iCloud account is configured")
        case .userDeletedZone: CloudKitError(.userDeletedZone, "User purged the zone")
        case .changeTokenExpired: CloudKitError(.changeTokenExpired, "Change Token Expired")
        case .serverRecordChanged: CloudKitError(.serverRecordChanged, "record to insert already exists")
        }
    }
}

/// The operations a fault can be injected on.
public enum CloudOperation: String, Sendable, Hashable, CaseIterable {
    case modifyRecords, records, recordZoneChanges, modifyRecordZones, subscriptions
}

/// A record type or field development created just in time: the schema change a deploy to
/// production needs.
public struct DevelopmentAddition: Sendable, Hashable, CustomStringConvertible {
    public var recordType: String
    /// nil: the record type itself was created.
    public var field: String?
    /// The field's type as the schema spells it (`string`, `list<int64>`), nil for a type.
    public var fieldType: String?
    public var isEncrypted: Bool

    public var description: String {
        guard let field else { return "record type \(recordType)" }
        return "field \(recordType).\(field) (\(fieldType ?? "?")\(isEncrypted ? ", encrypted" : ""))"
    }
}
