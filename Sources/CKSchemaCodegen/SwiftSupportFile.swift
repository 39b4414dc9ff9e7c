import Foundation

/// The shared file of generated code (`CloudSchema.swift`): the namespace and the generic
/// machinery every record type uses. Its text is fixed but for the namespace, the access level
/// and the header, so that type-checking it costs the same whatever the schema's size.
enum SwiftSupportFile {
    /// The names this file declares in the namespace; a record type with one of them gets a
    /// trailing `_`.
    static let declaredNames: Set<String> = [
        "Record", "RecordNameQueryable", "Zone", "Zones", "RecordError", "Index", "IsQueryable", "IsSortable",
        "IsSearchable", "Plaintext", "Indexes", "Matchable", "Orderable", "Notifiable", "FieldKey", "Predicate",
        "Comparison", "Sort", "Match", "Subscriptions", "Keys", "SchemaRejection",
    ]

    static func text(namespace: String, access: String) -> String {
        (template + rejection).replacingOccurrences(of: "NAMESPACE", with: namespace).replacingOccurrences(of: "ACCESS ", with: access)
    }

    /// The part of the shared file that reads CloudKit's refusals (`classify`, issue 34 point 5):
    /// a pure-Swift reader of an error's code and message, which needs neither CloudKit nor
    /// Foundation (the tests compile and run it on Linux), and the `CKError` wrapper under
    /// `#if canImport(CloudKit)` (type-checked against the SDK stub).
    static func rejectionText(namespace: String, access: String) -> String {
        rejection.replacingOccurrences(of: "NAMESPACE", with: namespace).replacingOccurrences(of: "ACCESS ", with: access)
    }

    // CloudKit's messages, as public threads quote them (each one a test case in
    // SchemaRejectionTests):
    // - "Cannot create or modify field 'order' in record 'Todo' in production schema", CKError
    //   "Invalid Arguments" (12/2006): github.com/caiyue1993/IceCream/issues/164; 'isLive' in
    //   'WatchEntry': github.com/yattee/yattee/issues/979
    // - "Cannot create new type FavoriteTable in production schema":
    //   github.com/TableProApp/TablePro/pull/2226
    // - "Field 'recordName' is not marked queryable" (12/2015): github.com/caiyue1993/IceCream/issues/169;
    //   "Field '___recordID' is not marked queryable": github.com/DevMountain/Timeline/issues/11,
    //   github.com/evermeer/EVCloudKitDao/issues/79
    // - "Field '___createTime' is not marked sortable": github.com/evermeer/EVCloudKitDao/issues/2
    // A partial failure (CKError 2) carries one error per item under CKPartialErrorsByItemIDKey
    // (developer.apple.com/documentation/cloudkit/ckerror/code): the wrapper reads them.
    private static let rejection = #"""

        extension NAMESPACE {
          /// Why CloudKit refused a save or a query because of the schema: what `classify` reads
          /// out of its error, so that the app can show and log the cause.
          ACCESS struct SchemaRejection: Equatable, Sendable {
            /// What CloudKit refused.
            ACCESS enum Kind: String, Equatable, Sendable {
              /// A field the environment's schema lacks: "Cannot create or modify field 'F' in
              /// record 'T' in production schema" (12/2006).
              case fieldNotDeployed
              /// A record type the environment's schema lacks: "Cannot create new type T in
              /// production schema".
              case typeNotDeployed
              /// A query on a field without a queryable index: "Field 'F' is not marked
              /// queryable" (12/2015).
              case notQueryable
              /// A sort on a field without a sortable index: "Field 'F' is not marked sortable"
              /// (12/2015).
              case notSortable
            }

            /// What CloudKit refused.
            ACCESS var kind: Kind
            /// The record type CloudKit names, nil when its message names none.
            ACCESS var recordType: String?
            /// The field CloudKit names (its system fields as CloudKit spells them, `___recordID`).
            ACCESS var field: String?
            /// The environment whose schema refused (`production`), nil when the message does
            /// not say.
            ACCESS var environment: String?
            /// What to do about it.
            ACCESS var fix: String
            /// CloudKit's own message.
            ACCESS var message: String

            ACCESS init(
              kind: Kind, recordType: String?, field: String?, environment: String?, fix: String,
              message: String
            ) {
              self.kind = kind
              self.recordType = recordType
              self.field = field
              self.environment = environment
              self.fix = fix
              self.message = message
            }
          }

          /// CloudKit's schema refusal in an error's code (`CKError.Code.rawValue`), its server code
          /// (2006, 2015, when known) and its message (the server's message, or the error's whole
          /// description: `server message = "..."` is read out of it); nil for any other error.
          ACCESS static func classify(code: Int, serverCode: Int?, message: String) -> SchemaRejection? {
            // 12 is CKError.Code.invalidArguments, the code of every schema refusal; the server
            // codes seen with it are 2006 (a type or field) and 2015 (an index).
            guard code == 12, serverCode == nil || serverCode == 2006 || serverCode == 2015 else {
              return nil
            }
            // A message as a debug print shows it (`Optional("Field \'___recordID\' ...")`) reads the same.
            var text = Substring(message.replacing("\\'", with: "'"))
            if let start = text.firstRange(of: "server message = \"") {
              text = text[start.upperBound...]
              if let end = text.firstIndex(of: "\"") { text = text[..<end] }
            }
            let said = String(text)
            // The word before " schema" in "... in production schema".
            func environment(_ rest: Substring) -> String? {
              guard let inWord = rest.firstRange(of: " in "),
                let schema = rest[inWord.upperBound...].firstRange(of: " schema")
              else { return nil }
              return String(rest[inWord.upperBound..<schema.lowerBound])
            }
            // The name in quotes right after `prefix`, and what follows it.
            func quoted(after prefix: String, in s: Substring) -> (name: String, rest: Substring)? {
              guard let p = s.firstRange(of: prefix) else { return nil }
              let after = s[p.upperBound...]
              guard let close = after.firstIndex(of: "'") else { return nil }
              return (String(after[..<close]), after[after.index(after: close)...])
            }
            if let field = quoted(after: "Cannot create or modify field '", in: text),
              let type = quoted(after: "in record '", in: field.rest)
            {
              let env = environment(type.rest)
              return SchemaRejection(
                kind: .fieldNotDeployed, recordType: type.name, field: field.name, environment: env,
                fix:
                  "deploy field '\(field.name)' of record type '\(type.name)' to \(env ?? "the environment")'s schema (CloudKit Console: Deploy Schema Changes) before a build writes it: \(env ?? "that environment") never creates a field",
                message: said)
            }
            if let p = text.firstRange(of: "Cannot create new type ") {
              let rest = text[p.upperBound...]
              guard let end = rest.firstRange(of: " in ") else { return nil }
              var name = rest[..<end.lowerBound]
              if name.hasPrefix("'"), name.hasSuffix("'"), name.count >= 2 {
                name = name.dropFirst().dropLast()
              }
              let type = String(name)
              let env = environment(rest)
              let fix =
                type == "cloudkit.share"
                ? "save one share in the development environment (CloudKit then creates cloudkit.share) and deploy the schema to \(env ?? "production"): \(env ?? "production") never creates a type"
                : "deploy record type '\(type)' to \(env ?? "the environment")'s schema (CloudKit Console: Deploy Schema Changes) before a build saves it: \(env ?? "that environment") never creates a type"
              return SchemaRejection(
                kind: .typeNotDeployed, recordType: type, field: nil, environment: env, fix: fix,
                message: said)
            }
            for (word, kind) in [
              ("queryable", SchemaRejection.Kind.notQueryable), ("sortable", .notSortable),
            ] {
              guard let field = quoted(after: "Field '", in: text),
                field.rest.hasPrefix(" is not marked \(word)")
              else { continue }
              let shown =
                field.name == "___recordID"
                ? "recordName (___recordID)"
                : field.name == "___createTime"
                  ? "createdAt (___createTime)"
                  : field.name == "___modTime" ? "modifiedAt (___modTime)" : "'\(field.name)'"
              return SchemaRejection(
                kind: kind, recordType: nil, field: field.name, environment: nil,
                fix:
                  "add a \(word.uppercased()) index on \(shown) of the queried record type in the schema, and deploy it to production",
                message: said)
            }
            return nil
          }
        }

        #if canImport(CloudKit)
          extension NAMESPACE {
            /// CloudKit's schema refusal in `error`: a `CKError` of its own, or the first of the
            /// per-item errors a partial failure carries (`CKPartialErrorsByItemIDKey`); nil when
            /// the error is no schema refusal.
            ACCESS static func classify(_ error: any Error) -> SchemaRejection? {
              guard let error = error as? CKError else { return nil }
              if error.code == .partialFailure {
                for item in (error.partialErrorsByItemID ?? [:]).values {
                  if let found = classify(item) { return found }
                }
                return nil
              }
              let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
              let server =
                error.userInfo["ServerErrorDescription"] as? String
                ?? underlying?.userInfo["ServerErrorDescription"] as? String
              // The server's code (2006, 2015) is the code of the underlying CKInternalErrorDomain error.
              let code = error.code.rawValue
              let serverCode = underlying?.domain == "CKInternalErrorDomain" ? underlying?.code : nil
              return classify(
                code: code, serverCode: serverCode, message: server ?? error.localizedDescription)
                ?? classify(code: code, serverCode: serverCode, message: String(describing: error))
            }
          }
        #endif

        """#

    private static let template = #"""
        /// The schema's record types, keys, zones, queries and subscriptions as Swift types
        /// (docs/codegen.md).
        ACCESS enum NAMESPACE {}

        extension NAMESPACE {
          /// A generated record type: a typed view of one `CKRecord`.
          ACCESS protocol Record {
            /// The record type's name in the schema.
            static var recordType: CKRecord.RecordType { get }
            /// The record this value reads and writes.
            var record: CKRecord { get }
            /// Wraps a record; throws `RecordError` for a record of another type or zone.
            init(record: CKRecord) throws
          }

          /// A record type whose `recordName` is queryable, so that `Predicate.all` can query it.
          ACCESS protocol RecordNameQueryable: Record {}

          /// A record zone of the schema.
          ACCESS protocol Zone {
            /// The zone's ID, for its owner.
            var zoneID: CKRecordZone.ID { get }
          }

          /// Why `init(record:)` refused a record.
          ACCESS enum RecordError: Error, Equatable {
            /// The record is of another record type.
            case wrongType(expected: String, found: String)
            /// The record is in another zone than the schema puts its type in.
            case wrongZone(expected: String, found: String)
          }

          /// The indexes of a key, as a type: what a query may do with it.
          ACCESS protocol Index {}
          /// A key `==`, `!=`, `<`, `<=`, `>`, `>=`, `.in`, `.beginsWith`, `.contains` and `.near` take.
          ACCESS protocol IsQueryable: Index {}
          /// A key `Sort.ascending` and `Sort.descending` take.
          ACCESS protocol IsSortable: Index {}
          /// A key `.containsTokens` takes.
          ACCESS protocol IsSearchable: Index {}
          /// A custom field stored in plain text: a notification can carry it.
          ACCESS protocol Plaintext: Index {}

          /// Every combination of indexes a key can have.
          ACCESS enum Indexes {
            /// No index.
            ACCESS enum None: Plaintext {}
            ACCESS enum Queryable: IsQueryable, Plaintext {}
            ACCESS enum Searchable: IsSearchable, Plaintext {}
            ACCESS enum Sortable: IsSortable, Plaintext {}
            ACCESS enum QueryableSearchable: IsQueryable, IsSearchable, Plaintext {}
            ACCESS enum QueryableSortable: IsQueryable, IsSortable, Plaintext {}
            ACCESS enum SearchableSortable: IsSearchable, IsSortable, Plaintext {}
            ACCESS enum QueryableSearchableSortable: IsQueryable, IsSearchable, IsSortable, Plaintext {}
            /// An encrypted field: the server cannot read it, so no comparison, sort or desired key.
            ACCESS enum Encrypted: Index {}

            /// The indexes of a system field (`recordName`, `createdAt`, ...).
            ACCESS enum System {
              ACCESS enum None: Index {}
              ACCESS enum Queryable: IsQueryable {}
              ACCESS enum Sortable: IsSortable {}
              ACCESS enum QueryableSortable: IsQueryable, IsSortable {}
            }
          }

          /// A value `==`, `!=` and `.in` compare.
          ACCESS protocol Matchable {}
          /// A value `<`, `<=`, `>` and `>=` order.
          ACCESS protocol Orderable: Matchable {}
          /// A value a notification can carry (not an asset).
          ACCESS protocol Notifiable {}

          /// The keys of one record type (`Trip.Key`). The system fields' keys are declared once,
          /// here, typed by the indexes the record type gives them (none unless it says), so that
          /// each record type declares only its own fields' keys.
          ACCESS protocol Keys {
            /// The record type whose keys these are.
            associatedtype Root: Record
            /// The indexes of `recordName`.
            associatedtype RecordNameIndex: Index = Indexes.System.None
            /// The indexes of `createdAt`.
            associatedtype CreatedAtIndex: Index = Indexes.System.None
            /// The indexes of `createdBy`.
            associatedtype CreatedByIndex: Index = Indexes.System.None
            /// The indexes of `modifiedAt`.
            associatedtype ModifiedAtIndex: Index = Indexes.System.None
            /// The indexes of `modifiedBy`.
            associatedtype ModifiedByIndex: Index = Indexes.System.None
            /// The indexes of `etag`.
            associatedtype EtagIndex: Index = Indexes.System.None
          }

          /// The key of a field of `Root`, holding `Value`, with the indexes `Index`.
          ACCESS struct FieldKey<Root: Record, Value, Index: NAMESPACE.Index>: Sendable {
            /// The key's name in a record and in a query.
            ACCESS let name: String

            init(_ name: String) { self.name = name }
          }

          /// A query predicate on `Root`: comparisons of its keys joined by `&&`.
          ACCESS struct Predicate<Root: Record> {
            /// The `NSPredicate` format, with `%K` and `%@` placeholders.
            ACCESS let format: String
            /// The values of the placeholders.
            ACCESS let arguments: [Any]

            /// The predicate `CKQuery` takes.
            ACCESS var nsPredicate: NSPredicate { NSPredicate(format: format, argumentArray: arguments) }

            /// Both predicates (CloudKit has no OR, so there is no `||`).
            ACCESS static func && (lhs: Self, rhs: Self) -> Self {
              Self(format: lhs.format + " AND " + rhs.format, arguments: lhs.arguments + rhs.arguments)
            }
          }

          /// One comparison: what `!` negates (CloudKit refuses NOT around AND, tokens and distances).
          ACCESS struct Comparison<Root: Record> {
            let format: String
            let arguments: [Any]

            /// The comparison negated.
            ACCESS static prefix func ! (operand: Self) -> Predicate<Root> {
              Predicate(format: "NOT (" + operand.format + ")", arguments: operand.arguments)
            }
          }

          /// A sort descriptor on a sortable key of `Root`.
          ACCESS struct Sort<Root: Record> {
            /// The key's name.
            ACCESS let key: String
            /// True for ascending order.
            ACCESS let isAscending: Bool

            /// The descriptor `CKQuery.sortDescriptors` takes.
            ACCESS var descriptor: NSSortDescriptor { NSSortDescriptor(key: key, ascending: isAscending) }

            /// Ascending order of a sortable key.
            ACCESS static func ascending<V, I: IsSortable>(_ key: FieldKey<Root, V, I>) -> Self {
              Self(key: key.name, isAscending: true)
            }

            /// Descending order of a sortable key.
            ACCESS static func descending<V, I: IsSortable>(_ key: FieldKey<Root, V, I>) -> Self {
              Self(key: key.name, isAscending: false)
            }
          }

          /// What a declared query's parameter matches: one comparison with its field.
          ACCESS struct Match<Value> {
            let format: String
            let arguments: [Any]
          }
        }

        extension String: NAMESPACE.Orderable, NAMESPACE.Notifiable {}
        extension Int64: NAMESPACE.Orderable, NAMESPACE.Notifiable {}
        extension Double: NAMESPACE.Orderable, NAMESPACE.Notifiable {}
        extension Date: NAMESPACE.Orderable, NAMESPACE.Notifiable {}
        extension NSNumber: NAMESPACE.Orderable, NAMESPACE.Notifiable {}
        extension Data: NAMESPACE.Matchable, NAMESPACE.Notifiable {}
        extension CKRecord.Reference: NAMESPACE.Matchable, NAMESPACE.Notifiable {}
        extension CKRecord.ID: NAMESPACE.Matchable {}
        extension CLLocation: NAMESPACE.Notifiable {}
        extension Array: NAMESPACE.Notifiable where Element: NAMESPACE.Notifiable {}

        extension NAMESPACE.FieldKey where Index: NAMESPACE.IsQueryable, Value: NAMESPACE.Matchable {
          func compare(_ op: String, _ value: Value) -> NAMESPACE.Comparison<Root> {
            NAMESPACE.Comparison(format: "%K " + op + " %@", arguments: [name, value])
          }

          ACCESS static func == (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare("==", value))
          }

          ACCESS static func != (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare("!=", value))
          }

          /// The key's value is one of `values`.
          ACCESS func `in`(_ values: [Value]) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(format: "%K IN %@", arguments: [name, values])
          }

          @_disfavoredOverload
          ACCESS static func == (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare("==", value)
          }

          @_disfavoredOverload
          ACCESS static func != (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare("!=", value)
          }

          /// The key's value is one of `values`.
          @_disfavoredOverload
          ACCESS func `in`(_ values: [Value]) -> NAMESPACE.Comparison<Root> {
            NAMESPACE.Comparison(format: "%K IN %@", arguments: [name, values])
          }

        }

        extension NAMESPACE.FieldKey where Index: NAMESPACE.IsQueryable, Value: NAMESPACE.Orderable {
          ACCESS static func < (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare("<", value))
          }

          ACCESS static func <= (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare("<=", value))
          }

          ACCESS static func > (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare(">", value))
          }

          ACCESS static func >= (key: Self, value: Value) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(key.compare(">=", value))
          }

          @_disfavoredOverload
          ACCESS static func < (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare("<", value)
          }

          @_disfavoredOverload
          ACCESS static func <= (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare("<=", value)
          }

          @_disfavoredOverload
          ACCESS static func > (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare(">", value)
          }

          @_disfavoredOverload
          ACCESS static func >= (key: Self, value: Value) -> NAMESPACE.Comparison<Root> {
            key.compare(">=", value)
          }
        }

        extension NAMESPACE.FieldKey where Index: NAMESPACE.IsQueryable, Value == String {
          /// The string begins with `prefix`.
          ACCESS func beginsWith(_ prefix: String) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(format: "%K BEGINSWITH %@", arguments: [name, prefix])
          }

          /// The string begins with `prefix`.
          @_disfavoredOverload
          ACCESS func beginsWith(_ prefix: String) -> NAMESPACE.Comparison<Root> {
            NAMESPACE.Comparison(format: "%K BEGINSWITH %@", arguments: [name, prefix])
          }
        }

        extension NAMESPACE.FieldKey where Index: NAMESPACE.IsQueryable {
          /// The key compared as a declared query's parameter says.
          ACCESS func matching(_ match: NAMESPACE.Match<Value>) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(format: match.format, arguments: [name] + match.arguments)
          }

          /// The list holds `element`.
          ACCESS func contains<Element>(_ element: Element) -> NAMESPACE.Predicate<Root>
          where Value == [Element] {
            NAMESPACE.Predicate(format: "%K CONTAINS %@", arguments: [name, element])
          }

          /// The list holds `element`.
          @_disfavoredOverload
          ACCESS func contains<Element>(_ element: Element) -> NAMESPACE.Comparison<Root>
          where Value == [Element] {
            NAMESPACE.Comparison(format: "%K CONTAINS %@", arguments: [name, element])
          }

          /// The location is within `kilometers` of `location` (CloudKit's distance function).
          ACCESS func near(_ location: CLLocation, withinKilometers kilometers: Double)
            -> NAMESPACE.Predicate<Root>
          where Value == CLLocation {
            NAMESPACE.Predicate(
              format: "distanceToLocation:fromLocation:(%K, %@) < %@",
              arguments: [name, location, NSNumber(value: kilometers)])
          }
        }

        extension NAMESPACE.FieldKey where Index: NAMESPACE.IsSearchable {
          /// A token search: CloudKit's `self CONTAINS`, which matches the words of `text` in the
          /// type's searchable fields (strings and lists of strings, the only ones that can be).
          ACCESS func containsTokens(_ text: String) -> NAMESPACE.Predicate<Root> {
            NAMESPACE.Predicate(format: "self CONTAINS %@", arguments: [text])
          }
        }

        extension NAMESPACE.Keys {
          /// The system field `recordName` (`recordID` in a query).
          ACCESS static var recordName: NAMESPACE.FieldKey<Root, CKRecord.ID, RecordNameIndex> {
            .init("recordID")
          }

          /// The system field `createdAt` (`creationDate` in a query).
          ACCESS static var createdAt: NAMESPACE.FieldKey<Root, Date, CreatedAtIndex> {
            .init("creationDate")
          }

          /// The system field `createdBy` (`creatorUserRecordID` in a query).
          ACCESS static var createdBy: NAMESPACE.FieldKey<Root, CKRecord.ID, CreatedByIndex> {
            .init("creatorUserRecordID")
          }

          /// The system field `modifiedAt` (`modificationDate` in a query).
          ACCESS static var modifiedAt: NAMESPACE.FieldKey<Root, Date, ModifiedAtIndex> {
            .init("modificationDate")
          }

          /// The system field `modifiedBy` (`lastModifiedUserRecordID` in a query).
          ACCESS static var modifiedBy: NAMESPACE.FieldKey<Root, CKRecord.ID, ModifiedByIndex> {
            .init("lastModifiedUserRecordID")
          }

          /// The system field `etag` (`___etag` in a query).
          ACCESS static var etag: NAMESPACE.FieldKey<Root, String, EtagIndex> { .init("___etag") }
        }

        extension NAMESPACE.Predicate {
          init(_ comparison: NAMESPACE.Comparison<Root>) {
            self.init(format: comparison.format, arguments: comparison.arguments)
          }
        }

        extension NAMESPACE.Predicate where Root: NAMESPACE.RecordNameQueryable {
          /// Every record of the type (TRUEPREDICATE): CloudKit needs a queryable `recordName`.
          ACCESS static var all: Self { Self(format: "TRUEPREDICATE", arguments: []) }
        }

        extension NAMESPACE.Match where Value: NAMESPACE.Matchable {
          ACCESS static func equals(_ value: Value) -> Self { Self(format: "%K == %@", arguments: [value]) }
          ACCESS static func notEquals(_ value: Value) -> Self {
            Self(format: "%K != %@", arguments: [value])
          }
          ACCESS static func `in`(_ values: [Value]) -> Self {
            Self(format: "%K IN %@", arguments: [values])
          }
        }

        extension NAMESPACE.Match where Value: NAMESPACE.Orderable {
          ACCESS static func lessThan(_ value: Value) -> Self {
            Self(format: "%K < %@", arguments: [value])
          }
          ACCESS static func atMost(_ value: Value) -> Self { Self(format: "%K <= %@", arguments: [value]) }
          ACCESS static func greaterThan(_ value: Value) -> Self {
            Self(format: "%K > %@", arguments: [value])
          }
          ACCESS static func atLeast(_ value: Value) -> Self {
            Self(format: "%K >= %@", arguments: [value])
          }
        }

        extension NAMESPACE.Match where Value == String {
          ACCESS static func beginsWith(_ prefix: String) -> Self {
            Self(format: "%K BEGINSWITH %@", arguments: [prefix])
          }
        }

        extension NAMESPACE.Match {
          ACCESS static func contains<Element>(_ element: Element) -> Self where Value == [Element] {
            Self(format: "%K CONTAINS %@", arguments: [element])
          }
        }

        extension NAMESPACE.Record {
          /// Throws `RecordError` unless `record` is of this type (and in `zone`, when given). One
          /// body for every type: a `==` in each initializer would cost the type checker per type.
          static func check(_ record: CKRecord, zone: String?) throws {
            guard record.recordType == recordType else {
              throw NAMESPACE.RecordError.wrongType(expected: recordType, found: record.recordType)
            }
            let found = record.recordID.zoneID.zoneName
            if let zone, found != zone {
              throw NAMESPACE.RecordError.wrongZone(expected: zone, found: found)
            }
          }

          /// The record's name.
          ACCESS var recordName: String { record.recordID.recordName }

          /// The system field `createdAt`.
          ACCESS var createdAt: Date? { record.creationDate }

          /// The system field `createdBy`.
          ACCESS var createdBy: CKRecord.ID? { record.creatorUserRecordID }

          /// The system field `modifiedAt`.
          ACCESS var modifiedAt: Date? { record.modificationDate }

          /// The system field `modifiedBy`.
          ACCESS var modifiedBy: CKRecord.ID? { record.lastModifiedUserRecordID }

          /// The system field `etag`.
          ACCESS var etag: String? { record.recordChangeTag }

          /// A new record of this type named `recordName` in the zone `zoneID`.
          static func newRecord(_ recordName: String, _ zoneID: CKRecordZone.ID) -> CKRecord {
            CKRecord(recordType: recordType, recordID: CKRecord.ID(recordName: recordName, zoneID: zoneID))
          }

          // Every generated property reads and writes through these four: one generic body each,
          // instead of a subscript in each property among the SDK's three `CKRecord` subscripts.

          /// The value of the field `key`.
          func fieldValue<Value: CKRecordValueProtocol>(_ key: String) -> Value? { record[key] }

          /// Sets the field `key`; `nil` removes its value.
          func setFieldValue<Value: CKRecordValueProtocol>(_ key: String, _ value: Value?) {
            record[key] = value
          }

          /// The value of the encrypted field `key`.
          func encryptedValue<Value: CKRecordValueProtocol>(_ key: String) -> Value? {
            record.encryptedValues[key]
          }

          /// Sets the encrypted field `key`; `nil` removes its value.
          func setEncryptedValue<Value: CKRecordValueProtocol>(_ key: String, _ value: Value?) {
            record.encryptedValues[key] = value
          }

          /// A field key of this type.
          ACCESS typealias Field<Value, Index: NAMESPACE.Index> = NAMESPACE.FieldKey<Self, Value, Index>

          /// A query of this type's records matching `predicate`, sorted by `sortedBy`.
          ACCESS static func query(
            _ predicate: NAMESPACE.Predicate<Self>, sortedBy: [NAMESPACE.Sort<Self>] = []
          )
            -> CKQuery
          {
            let query = CKQuery(recordType: recordType, predicate: predicate.nsPredicate)
            query.sortDescriptors = sortedBy.map(\.descriptor)
            return query
          }

          /// The desired keys of a notification: one to three plain-text, non-asset keys.
          ACCESS static func desiredKeys<V1: NAMESPACE.Notifiable, I1: NAMESPACE.Plaintext>(
            _ k1: NAMESPACE.FieldKey<Self, V1, I1>
          ) -> [CKRecord.FieldKey] {
            [k1.name]
          }

          /// The desired keys of a notification: one to three plain-text, non-asset keys.
          ACCESS static func desiredKeys<
            V1: NAMESPACE.Notifiable, I1: NAMESPACE.Plaintext, V2: NAMESPACE.Notifiable,
            I2: NAMESPACE.Plaintext
          >(
            _ k1: NAMESPACE.FieldKey<Self, V1, I1>, _ k2: NAMESPACE.FieldKey<Self, V2, I2>
          ) -> [CKRecord.FieldKey] {
            [k1.name, k2.name]
          }

          /// The desired keys of a notification: one to three plain-text, non-asset keys (CloudKit
          /// sends at most three).
          ACCESS static func desiredKeys<
            V1: NAMESPACE.Notifiable, I1: NAMESPACE.Plaintext, V2: NAMESPACE.Notifiable,
            I2: NAMESPACE.Plaintext,
            V3: NAMESPACE.Notifiable, I3: NAMESPACE.Plaintext
          >(
            _ k1: NAMESPACE.FieldKey<Self, V1, I1>, _ k2: NAMESPACE.FieldKey<Self, V2, I2>,
            _ k3: NAMESPACE.FieldKey<Self, V3, I3>
          ) -> [CKRecord.FieldKey] {
            [k1.name, k2.name, k3.name]
          }
        }

        """#
}
