import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaSwift

/// Walks one file's tokens for the CloudKit calls the scan knows (docs/scan.md), checks
/// records, fields and zones itself, and gathers queries and subscriptions for lint's rules.
struct ScanCollector {
    let schema: Schema
    let environment: Environment
    private let types: [String: RecordType]
    /// Each name's record type as its index in `schema.recordTypes` (the first of a name, as
    /// `types` holds): a field is looked up in place, with no copy of its record type.
    private let typeIndex: [String: Int]
    /// True when the schema says where its record types live (YAML `zone:`, `zones:`).
    let namesZones: Bool
    /// False for a scan without a schema: no record type or field is unknown then.
    let hasSchema: Bool

    var diagnostics: [Diagnostic] = []
    var unresolved: [Diagnostic] = []
    var surface = CodeSurface()
    var queries: [(query: DeclaredQuery, site: SourceLocation, relocate: Bool)] = []
    var subscriptions: [Subscription] = []
    /// The database each of `subscriptions` is saved to; nil where the scan cannot tell (a
    /// `save` on a parameter, or no save it follows): its database rules are not checked.
    var subscriptionDatabases: [Database?] = []
    /// A line of a file.
    struct Line: Hashable {
        var file: String
        var line: Int
    }
    /// The calls whose predicate has a `%@` the scan could not resolve: its type is not checked.
    var untyped: Set<Line> = []

    /// The lint codes a scanned query or subscription is checked by.
    static let reusedCodes = ["CK110", "CK113", "CK118", "CK126"] + PredicateRules.all.map(\.code)
        + ["CK710", "CK711", "CK712", "CK713", "CK714", "CK715"]

    init(schema: Schema, environment: Environment, hasSchema: Bool = true) {
        self.schema = schema
        self.environment = environment
        self.hasSchema = hasSchema
        types = Dictionary(schema.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        typeIndex = Dictionary(schema.recordTypes.indices.map { (schema.recordTypes[$0].name, $0) }, uniquingKeysWith: { a, _ in a })
        namesZones = ZoneRules.namesZones(schema)
    }

    /// How many findings of each kind the collector holds: where the next file's begin.
    struct Mark {
        var diagnostics = 0, unresolved = 0, queries = 0, subscriptions = 0
    }

    var mark: Mark {
        Mark(diagnostics: diagnostics.count, unresolved: unresolved.count, queries: queries.count, subscriptions: subscriptions.count)
    }

    /// Puts `redone[i]` (a blank collector that read file `i` again) in place of what file `i`
    /// gave the first time; `marks[i]` is where file `i`'s findings began, and the last mark
    /// where the last file's ended. Everything stays in file order.
    mutating func replace(_ redone: [Int: ScanCollector], files: [String], marks: [Mark]) {
        guard !redone.isEmpty else { return }
        func rebuilt<T>(_ all: [T], _ at: KeyPath<Mark, Int>, _ own: KeyPath<ScanCollector, [T]>) -> [T] {
            var out: [T] = []
            for i in files.indices {
                if let again = redone[i] { out += again[keyPath: own] } else { out += all[marks[i][keyPath: at]..<marks[i + 1][keyPath: at]] }
            }
            return out
        }
        diagnostics = rebuilt(diagnostics, \.diagnostics, \.diagnostics)
        unresolved = rebuilt(unresolved, \.unresolved, \.unresolved)
        queries = rebuilt(queries, \.queries, \.queries)
        subscriptions = rebuilt(subscriptions, \.subscriptions, \.subscriptions)
        subscriptionDatabases = rebuilt(subscriptionDatabases, \.subscriptions, \.subscriptionDatabases)
        let names = Set(redone.keys.map { files[$0] })
        untyped = untyped.filter { !names.contains($0.file) }
        var order: [String: Int] = [:]
        for (i, f) in files.enumerated() where order[f] == nil { order[f] = i }
        let again = redone.keys.sorted().map { redone[$0]! }
        for c in again { untyped.formUnion(c.untyped) }
        surface.replace(files: names, with: again.map(\.surface), order: order)
    }

    // MARK: Reading a file

    /// The calls and members `read` switches over, found by their bytes (`ScanNames`).
    private static let calls = ScanNames([
        "CKRecord", "CKQuery", "CKQuerySubscription", "CKDatabaseSubscription", "CKRecordZoneSubscription",
        "CKFetchRecordZoneChangesOperation", "CKModifyRecordZonesOperation",
    ])
    private static let members = ScanNames([
        "setValue", "setObject", "sortDescriptors", "desiredKeys", "notificationInfo", "perform", "records", "fetch", "save",
        "modifySubscriptions", "recordZoneChanges", "deleteRecordZone", "modifyRecordZones",
    ])

    mutating func read(_ r: SwiftCallReader, _ g: ScanGlobals) {
        let s = r.s
        var querySites: [Int: [Int]] = [:], subscriptionSites: [Int: [Int]] = [:]
        /// Why a subscription's database is not known: the receiver of the `save` the scan could not follow.
        var unknownSaves: [Int: String] = [:]
        var recordTypes: [Int: [String]] = [:]
        let n = s.tokens.count
        // Creations first, so that a later statement can name what a local holds.
        for i in 0..<n where s.is(i + 1, .leftParen) && !s.is(i - 1, .period) {
            // Only the names the cases name: any other call reaches only `default`.
            guard let known = Self.calls.index(s, i) else { continue }
            let scope = r.body(at: i)
            switch Self.calls.words[known] {
            case "CKRecord":
                guard let t = r.argument(i + 1, "recordType") else { continue }
                guard let names = strings(r.values(t, scope, g)) else { note(s, i, "the record type of CKRecord(recordType:)"); continue }
                recordTypes[i] = names
                var zone: String?? = .some(Zone.defaultZoneName)
                if let id = r.argument(i + 1, "recordID") {
                    // The first record ID's zone (`compactMap` then `first`, with no array made).
                    zone = r.values(id, scope, g).flatMap { held -> String?? in
                        for v in held { if case .recordID(let z) = v { return .some(z) } }
                        return nil
                    }
                } else if let z = r.argument(i + 1, "zoneID") {
                    zone = r.values(z, scope, g).flatMap { held -> String?? in
                        for v in held { if case .zone(let z) = v { return .some(z) } }
                        return nil
                    }
                }
                for name in names { created(name, zone: zone ?? nil, at: s.location(i)) }
            case "CKQuery":
                guard let t = r.argument(i + 1, "recordType"), let p = r.argument(i + 1, "predicate") else { continue }
                guard let name = string(r.values(t, scope, g)) else { note(s, i, "the record type of CKQuery(recordType:predicate:)"); continue }
                // A predicate a local is given in several places (`if` and `else`): one query each.
                guard let preds = predicates(r.values(p, scope, g)) else { note(s, i, "the predicate of CKQuery on '\(shown(name))'"); continue }
                // The call's place, found once (a binary search of the line table each time).
                let here = s.location(i)
                for pred in preds {
                    var q = DeclaredQuery(recordType: name, origin: Origin(here))
                    q.spelling = .cloudKit
                    q.predicate = pred.text
                    let relocate = pred.start == nil
                    q.predicateOrigin = Origin(pred.start ?? SourceLocation(file: s.file, line: here.line, column: 1))
                    if pred.untypedValues { untyped.insert(Line(file: s.file, line: here.line)) }
                    querySites[i, default: []].append(queries.count)
                    queries.append((q, here, relocate))
                    for f in filterFields(pred.text) where surface.recordTypes[name]?.filtered[f]?.last != here { surface.add(name, \.filtered, f, here) }
                }
            case "CKQuerySubscription", "CKDatabaseSubscription", "CKRecordZoneSubscription":
                let kind: Subscription.Kind = s.is(i, "CKQuerySubscription") ? .query : s.is(i, "CKDatabaseSubscription") ? .database : .zone
                let here = s.location(i)
                var sub = Subscription(id: "", kind: kind, origin: Origin(here))
                // App code speaks CloudKit's keys: `createdAt` in its predicate is a custom field.
                sub.spelling = .cloudKit
                // One subscription per predicate a local gives it (`if` and `else`), each checked.
                var variants: [ScanPredicate?] = [nil]
                if let id = r.argument(i + 1, "subscriptionID"), let v = string(r.values(id, scope, g)) { sub.id = v }
                if kind == .zone, let z = r.argument(i + 1, "zoneID") {
                    // A zone subscription on the default zone is lint's CK713 (below), as for a declared one.
                    // A zone the scan cannot follow (a parameter, as generated code's `zone.zoneID`) is
                    // not "no zone": the call is not checked, as any other value not resolved.
                    let zones = r.values(z, scope, g)?.compactMap { if case .zone(let z) = $0 { z } else { nil } }
                    guard let zone = zones?.first ?? nil else { note(s, i, "the zone of CKRecordZoneSubscription(zoneID:)"); continue }
                    sub.zone = zone
                }
                if kind == .query {
                    guard let t = r.argument(i + 1, "recordType"), let name = string(r.values(t, scope, g)) else { note(s, i, "the record type of CKQuerySubscription"); continue }
                    sub.recordType = name
                    if let p = r.argument(i + 1, "predicate") {
                        guard let preds = predicates(r.values(p, scope, g)) else { note(s, i, "the predicate of CKQuerySubscription on '\(shown(name))'"); continue }
                        variants = preds
                    }
                    sub.firesOn = events(r, r.argument(i + 1, "options"))
                }
                if sub.id.isEmpty { sub.id = "\(s.file):\(here.line)" }
                for pred in variants {
                    var one = sub
                    if let pred {
                        one.predicate = pred.text == "TRUEPREDICATE" ? nil : pred.text
                        one.predicateOrigin = Origin(pred.start ?? here)
                        if pred.untypedValues { untyped.insert(Line(file: s.file, line: here.line)) }
                    }
                    subscriptionSites[i, default: []].append(subscriptions.count)
                    subscriptions.append(one)
                    subscriptionDatabases.append(nil)
                }
            case "CKFetchRecordZoneChangesOperation":
                if let z = r.argument(i + 1, "recordZoneIDs"), hasDefault(r, z, scope, g) { zoneChanges(s, i, "CKFetchRecordZoneChangesOperation(recordZoneIDs:)") }
            case "CKModifyRecordZonesOperation":
                if let z = r.argument(i + 1, "recordZoneIDsToDelete"), hasDefault(r, z, scope, g) { zoneDelete(s, i, "CKModifyRecordZonesOperation(recordZoneIDsToDelete:)") }
            default: break
            }
        }
        // Statements on what locals hold.
        for i in 0..<n where s.isName(i) && !s.is(i - 1, .period) {
            let scope = r.body(at: i)
            guard scope >= 0 else { continue }
            var k = i + 1
            var encrypted = false
            if s.is(k, .period), s.is(k + 1, "encryptedValues") { encrypted = true; k += 2 }
            // record[K] = v, record[K] as? T
            if s.is(k, .leftBracket), let close = s.matching(k), let held = r.name(i, scope, g, 0) {
                let records = Self.types(of: held, recordTypes)
                guard !records.isEmpty else { continue }
                guard let keys = strings(r.values(k + 1, scope, g)) else { note(s, k + 1, "the field key of a record subscript"); continue }
                if s.is(close + 1, "=") {
                    for t in records { for key in keys { wrote(t, key, encrypted: encrypted, at: s.location(k + 1)) } }
                } else if s.is(close + 1, "as"), s.is(close + 2, "?") {
                    for t in records { for key in keys { readField(t, key, encrypted: encrypted, cast: castType(s, close + 3), at: s.location(k + 1)) } }
                }
                continue
            }
            guard s.is(k, .period), s.isName(k + 1) else { continue }
            // Only the members the cases name are made into a `String`: any other one reaches
            // only `default`, which does not read it.
            let p = k + 2
            // A member the list does not hold reaches only `default` (below, the same test):
            // switching over an empty `String` compared it with every case first.
            guard let known = Self.members.index(s, k + 1) else {
                if s.is(i, "self"), s.is(p, .period), s.isName(p + 1), s.is(p + 2, .leftParen), ["perform", "records", "fetch", "save", "modifySubscriptions"].contains(s.name(p + 1)) {
                    database(r, k + 1, s.name(p + 1), p + 2, scope, g, querySites, subscriptionSites, &unknownSaves)
                }
                continue
            }
            let member = Self.members.words[known]
            switch member {
            case "setValue", "setObject":
                guard s.is(p, .leftParen), let key = r.argument(p, "forKey"), let held = r.name(i, scope, g, 0) else { continue }
                let records = Self.types(of: held, recordTypes)
                guard !records.isEmpty else { continue }
                guard let keys = strings(r.values(key, scope, g)) else { note(s, key, "the key of \(member)(_:forKey:)"); continue }
                for t in records { for k in keys { wrote(t, k, encrypted: false, at: s.location(key)) } }
            case "sortDescriptors":
                guard s.is(p, "="), let held = r.name(i, scope, g, 0) else { continue }
                let sites = held.compactMap { if case .query(let t) = $0 { querySites[t] } else { nil } }.flatMap { $0 }
                guard !sites.isEmpty else { continue }
                // Each key with the place of its descriptor, where a finding about it points.
                var sorts: [(String, SourceLocation)] = []
                if s.is(p + 1, .leftBracket) {
                    for a in r.arguments(p + 1) {
                        guard let v = r.values(a.start, scope, g) else { note(s, a.start, "a sort descriptor's key"); continue }
                        sorts += v.compactMap { if case .sort(let f) = $0 { (f, s.location(a.start)) } else { nil } }
                    }
                }
                var surfaced: Set<String> = []
                for q in sites {
                    queries[q].query.sort += sorts.map(\.0)
                    queries[q].query.places.sort += sorts.map { Origin($0.1) }
                    let type = queries[q].query.recordType
                    guard surfaced.insert(type).inserted else { continue }
                    for (f, _) in sorts { surface.add(type, \.sorted, f, s.location(p + 1)) }
                }
            case "desiredKeys", "notificationInfo":
                desiredKeys(r, i, k, scope, g, subscriptionSites)
            case "perform", "records", "fetch", "save", "modifySubscriptions", "recordZoneChanges", "deleteRecordZone", "modifyRecordZones":
                guard s.is(p, .leftParen) else { continue }
                database(r, i, member, p, scope, g, querySites, subscriptionSites, &unknownSaves)
            default:
                // `self.database.save(...)`: the property is the receiver.
                if s.is(i, "self"), s.is(p, .period), s.isName(p + 1), s.is(p + 2, .leftParen), ["perform", "records", "fetch", "save", "modifySubscriptions"].contains(s.name(p + 1)) {
                    database(r, k + 1, s.name(p + 1), p + 2, scope, g, querySites, subscriptionSites, &unknownSaves)
                }
            }
        }
        // `X.privateCloudDatabase.perform(...)`: the database is named in the receiver itself.
        // The one-token tests first: most tokens are followed by no `.name(` and need no word.
        for i in 0..<n where s.is(i + 1, .period) && s.isName(i + 2) && s.is(i + 3, .leftParen) && (s.is(i, .rightParen) || r.dbName(i) != nil) {
            let scope = r.body(at: i)
            database(r, i, s.name(i + 2), i + 3, scope, g, querySites, subscriptionSites, &unknownSaves)
        }
        // A subscription whose database the scan could not tell: its database rules are not checked.
        for (site, indices) in subscriptionSites.sorted(by: { $0.key < $1.key }) {
            guard let index = indices.first, subscriptionDatabases[index] == nil else { continue }
            let why = unknownSaves[index] ?? "no save(_:) or modifySubscriptions(saving:) the scan follows saves it"
            note(s, site, "the database of subscription '\(shown(subscriptions[index].id))' (\(why))")
        }
    }

    // MARK: Records and fields

    private mutating func created(_ name: String, zone: String?, at loc: SourceLocation) {
        surface.recordTypes[name, default: CodeSurface.Uses()].created.append(loc)
        if let zone { surface.add(name, \.zones, zone, loc) }
        guard let t = types[name] else {
            if hasSchema, environment == .production {
                report(ScanRules.unknownRecordType, "record type '\(shown(name))' is not in the production schema; CloudKit refuses the save (\"Cannot create new type \(shown(name)) in production schema\")\(Suggest.phrase(for: name, in: schema.recordTypes.map(\.name)))", loc, fix: "correct the name, or add '\(shown(name))' to the development schema and promote it before this build ships")
            }
            return
        }
        guard namesZones, let zone else { return }
        let home = t.zone ?? Zone.defaultZoneName
        if zone == Zone.defaultZoneName, home != Zone.defaultZoneName {
            report(ScanRules.wrongZone, "a '\(shown(name))' record is written to the default zone, but the schema puts '\(shown(name))' in zone '\(shown(home))'", loc, fix: "give the record a CKRecord.ID(recordName:zoneID:) in zone '\(shown(home))'")
        } else if zone != Zone.defaultZoneName, home == Zone.defaultZoneName {
            report(ScanRules.wrongZone, "a '\(shown(name))' record is written to zone '\(shown(zone))', but the schema keeps '\(shown(name))' in the default zone", loc, fix: "write it to the default zone, or set 'zone: \(shown(zone))' on '\(shown(name))' in the schema")
        }
    }

    private mutating func field(_ type: String, _ key: String, verb: String, at loc: SourceLocation) -> Field? {
        guard let index = typeIndex[type] else { return nil }
        if let f = schema.recordTypes[index].field(named: key) { return f }
        if SystemField(rawValue: key) != nil { return nil }
        let t = schema.recordTypes[index]
        if environment == .production {
            report(ScanRules.unknownField, "\(verb) field '\(shown(key))' of '\(shown(type))', which the production schema does not have; CloudKit refuses it (\"Cannot create or modify field '\(shown(key))' in record '\(shown(type))' in production schema\")\(Suggest.phrase(for: key, in: t.fields.map(\.name)))", loc, fix: "correct the key, or add the field to '\(shown(type))' in development and promote it before this build ships")
        }
        return nil
    }

    private mutating func wrote(_ type: String, _ key: String, encrypted: Bool, at loc: SourceLocation) {
        surface.add(type, encrypted ? \.writtenEncrypted : \.written, key, loc)
        guard let f = field(type, key, verb: "writes", at: loc) else { return }
        if f.isEncrypted, !encrypted {
            report(ScanRules.encryption, "field '\(shown(key))' of '\(shown(type))' is encrypted, and this writes it as plaintext", loc, fix: "write it through record.encryptedValues[\"\(shown(key))\"]")
        } else if !f.isEncrypted, encrypted {
            report(ScanRules.encryption, "field '\(shown(key))' of '\(shown(type))' is not encrypted, and this writes it through encryptedValues", loc, fix: "write it as record[\"\(shown(key))\"], or make the field encrypted in the schema (a new field: an existing one cannot change)")
        }
    }

    private mutating func readField(_ type: String, _ key: String, encrypted: Bool, cast: (String, FieldType?)?, at loc: SourceLocation) {
        surface.add(type, \.read, key, loc)
        guard let f = field(type, key, verb: "reads", at: loc), let (spelled, wanted) = cast, let wanted else { return }
        let have = f.type
        let fits = have.isList == wanted.isList && (have.primitive == wanted.primitive || (have.primitive == .number && (wanted.primitive == .int64 || wanted.primitive == .double)))
        if !fits {
            report(ScanRules.castMismatch, "field '\(shown(key))' of '\(shown(type))' is \(have.description), so 'as? \(spelled)' is always nil", loc, fix: "cast to the Swift type of \(have.description)")
        }
    }

    /// The Swift type after `as?` and the field type it can hold; nil type when not one the scan knows.
    private func castType(_ s: SwiftSource, _ k: Int) -> (String, FieldType?)? {
        if s.is(k, .leftBracket), s.isName(k + 1), s.is(k + 2, .rightBracket) {
            let p = primitive(s.name(k + 1))
            return ("[\(s.name(k + 1))]", p.map { FieldType($0, isList: true) })
        }
        guard s.isName(k) else { return nil }
        var name = s.name(k)
        if s.is(k + 1, .period), s.isName(k + 2) { name += "." + s.name(k + 2) }
        return (name, primitive(name).map { FieldType($0) })
    }

    private func primitive(_ swift: String) -> PrimitiveType? {
        switch swift {
        case "String": .string
        case "Int", "Int64", "Int32", "Int16", "Int8", "UInt8", "UInt16", "UInt32", "Bool": .int64
        case "Double", "Float": .double
        case "Date": .timestamp
        case "Data": .bytes
        case "CKAsset": .asset
        case "CLLocation": .location
        case "CKRecord.Reference", "CKReference": .reference
        default: nil
        }
    }

    // MARK: Zones, databases, subscriptions

    private func hasDefault(_ r: SwiftCallReader, _ k: Int, _ scope: Int, _ g: ScanGlobals) -> Bool {
        let starts = r.s.is(k, .leftBracket) ? r.arguments(k).map(\.start) : [k]
        return starts.contains { r.values($0, scope, g)?.contains(.zone(Zone.defaultZoneName)) == true }
    }

    private mutating func zoneChanges(_ s: SwiftSource, _ i: Int, _ call: String) {
        report(ScanRules.defaultZoneChanges, "\(call) on the default zone: CloudKit supports fetching and subscribing to zone changes only in custom zones (\"AppDefaultZone does not support getChanges call\")", s.location(i), fix: "create a custom zone (CKRecordZone(zoneName:)) before the first write, keep the records there and fetch its changes")
        surface.zoneChanges.append(s.location(i))
    }

    private mutating func zoneDelete(_ s: SwiftSource, _ i: Int, _ call: String) {
        report(ScanRules.defaultZoneDelete, "\(call) deletes the default zone, which CloudKit refuses", s.location(i), fix: "delete the app's custom zone instead, or the records of the default zone one by one")
        surface.zoneDeletes.append(s.location(i))
    }

    private mutating func database(_ r: SwiftCallReader, _ i: Int, _ member: String, _ p: Int, _ scope: Int, _ g: ScanGlobals, _ querySites: [Int: [Int]], _ subscriptionSites: [Int: [Int]], _ unknownSaves: inout [Int: String]) {
        let s = r.s
        var db: Database?
        if let d = r.dbName(i) { db = d } else if s.is(i, .rightParen), let open = s.matching(i), s.is(open - 1, "database"), let w = r.argument(open, "with"), s.is(w, .period) { db = Database(rawValue: s.name(w + 1)) }
        else if s.isName(i), let v = r.name(i, scope, g, 0), v.count == 1, case .database(let d) = v[0] { db = d }
        // The first argument's label compared in place (`arguments(p).first` built every label).
        guard let first = r.firstArgument(p) else { return }
        func labelled(_ label: String) -> Bool { first.label.map { s.nameIs($0, label) } ?? false }
        switch member {
        case "recordZoneChanges":
            guard labelled("inZoneWith") else { return }
            if hasDefault(r, first.start, scope, g) { zoneChanges(s, first.start, "recordZoneChanges(inZoneWith:)") }
            return
        case "deleteRecordZone":
            if labelled("withID"), hasDefault(r, first.start, scope, g) { zoneDelete(s, first.start, "deleteRecordZone(withID:)") }
            return
        case "modifyRecordZones":
            if let d = r.argument(p, "deleting"), hasDefault(r, d, scope, g) { zoneDelete(s, d, "modifyRecordZones(saving:deleting:)") }
            return
        default: break
        }
        // The member's kind found once (an array literal of its names was built per value).
        let runsQuery = member == "perform" || member == "records" || member == "fetch"
        let savesSubscription = member == "save" || member == "modifySubscriptions"
        var targets = [first.start]
        if member == "modifySubscriptions", labelled("saving"), s.is(first.start, .leftBracket) { targets = r.arguments(first.start).map(\.start) }
        for t in targets {
            guard let held = r.values(t, scope, g) else { continue }
            for v in held {
                switch v {
                case .query(let q) where runsQuery:
                    guard let db else { continue }
                    // The record types already surfaced: a query site gives one or a few.
                    var surfaced: [String] = []
                    for index in querySites[q] ?? [] {
                        queries[index].query.database = db
                        let type = queries[index].query.recordType
                        if !surfaced.contains(type) { surfaced.append(type); surface.add(type, \.databases, db.rawValue, s.location(i)) }
                    }
                case .subscription(let q) where savesSubscription:
                    for index in subscriptionSites[q] ?? [] {
                        if let db {
                            subscriptions[index].database = db
                            subscriptionDatabases[index] = db
                        } else if subscriptionDatabases[index] == nil {
                            unknownSaves[index] = s.isName(i) ? "it is saved through '\(shown(s.name(i)))', which the scan cannot follow" : "it is saved through a call's result, which the scan cannot follow"
                        }
                    }
                default: break
                }
            }
        }
    }

    /// `sub.notificationInfo = info`, `info.desiredKeys = [...]`, `sub.notificationInfo?.desiredKeys = [...]`.
    private mutating func desiredKeys(_ r: SwiftCallReader, _ i: Int, _ k: Int, _ scope: Int, _ g: ScanGlobals, _ sites: [Int: [Int]]) {
        let s = r.s
        var targets: [Int] = []
        var keysAt: Int?
        if s.is(k + 1, "notificationInfo") {
            var j = k + 2
            if s.is(j, "?") { j += 1 }
            if s.is(j, .period), s.is(j + 1, "desiredKeys"), s.is(j + 2, "="), let held = r.name(i, scope, g, 0) {
                targets = held.compactMap { if case .subscription(let t) = $0 { sites[t] } else { nil } }.flatMap { $0 }
                keysAt = j + 3
            }
        } else if s.is(k + 1, "desiredKeys"), s.is(k + 2, "="), let held = r.name(i, scope, g, 0), held.contains(where: { if case .notificationInfo = $0 { true } else { false } }) {
            // The subscriptions this info is given to in the same function.
            let word = s.name(i)
            let b = r.bodies[scope]
            for j in b.0..<b.1 where s.is(j, "notificationInfo") && s.is(j + 1, "=") && s.isName(j + 2) && s.name(j + 2) == word && s.is(j - 1, .period) && s.isName(j - 2) {
                if let subs = r.name(j - 2, scope, g, 0) { targets += subs.compactMap { if case .subscription(let t) = $0 { sites[t] } else { nil } }.flatMap { $0 } }
            }
            keysAt = k + 3
        }
        guard let keysAt, !targets.isEmpty, s.is(keysAt, .leftBracket) else { return }
        var keys: [String] = []
        for a in r.arguments(keysAt) {
            guard let v = strings(r.values(a.start, scope, g)), v.count == 1 else { note(s, a.start, "a desired key"); return }
            keys.append(v[0])
        }
        for t in targets { subscriptions[t].desiredKeys = keys; subscriptions[t].origin = Origin(s.location(keysAt)) }
    }

    private func events(_ r: SwiftCallReader, _ k: Int?) -> Set<Subscription.Event> {
        guard let k, r.s.is(k, .leftBracket) else { return [.create, .update, .delete] }
        var out: Set<Subscription.Event> = []
        for a in r.arguments(k) where r.s.is(a.start, .period) {
            // Compared in place (`nameIs`): the names are longer than a `String` holds inline,
            // so making one per option allocated.
            let n = a.start + 1
            if r.s.nameIs(n, "firesOnRecordCreation") { out.insert(.create) }
            else if r.s.nameIs(n, "firesOnRecordUpdate") { out.insert(.update) }
            else if r.s.nameIs(n, "firesOnRecordDeletion") { out.insert(.delete) }
            else { return [.create, .update, .delete] }
        }
        return out
    }

    // MARK: Helpers

    /// The keys a predicate filters on, each distinct text parsed once (apps repeat theirs):
    /// the surface names a system field by the key the code wrote (`creationDate`), as
    /// CloudKit does, not by ckschema's YAML name (`createdAt`, which in app code is a custom field).
    private var filtered: [String: [String]] = [:]

    private mutating func filterFields(_ text: String) -> [String] {
        if let known = filtered[text] { return known }
        let fields = (try? PredicateParser.parse(text, spelling: .cloudKit))?.filterKeys ?? []
        filtered[text] = fields
        return fields
    }

    /// The record types of the records among `held`, in order: `compactMap` then `flatMap`
    /// with one array, not two (a record's single list is taken as it is).
    private static func types(of held: ScanValues, _ recordTypes: [Int: [String]]) -> [String] {
        var out: [String] = []
        for v in held {
            guard case .record(let t) = v, let names = recordTypes[t] else { continue }
            if out.isEmpty { out = names } else { out += names }
        }
        return out
    }

    /// The one string `values` hold: `strings(values)` when it is one string, with no array made.
    private func string(_ values: ScanValues?) -> String? {
        guard let values, values.count == 1, case .string(let s) = values[0] else { return nil }
        return s
    }

    private func strings(_ values: ScanValues?) -> [String]? {
        guard let values, !values.isEmpty else { return nil }
        let out = values.compactMap { if case .string(let s) = $0 { s } else { nil } }
        return out.count == values.count ? out : nil
    }

    private func predicate(_ values: ScanValues?) -> ScanPredicate? {
        guard let values, values.count == 1, case .predicate(let p) = values[0] else { return nil }
        return p
    }

    /// Every predicate the values can be (a local given one in each branch); nil when one is not a predicate.
    private func predicates(_ values: ScanValues?) -> [ScanPredicate]? {
        guard let values, !values.isEmpty else { return nil }
        let out = values.compactMap { if case .predicate(let p) = $0 { p } else { nil } }
        return out.count == values.count ? out : nil
    }

    private func shown(_ s: String) -> String { ControlCharacters.escaped(s) }

    private mutating func report(_ rule: RuleInfo, _ message: String, _ loc: SourceLocation, fix: String?) {
        diagnostics.append(Diagnostic(rule: rule, message, at: loc, fix: fix))
    }

    private mutating func note(_ s: SwiftSource, _ i: Int, _ what: String) {
        unresolved.append(Diagnostic(rule: ScanRules.notResolved, "not resolved: \(what); not checked", at: s.location(i)))
    }

    /// Lint's findings on a query whose predicate had arguments put in point at the call.
    func relocate(_ found: [Diagnostic]) -> [Diagnostic] {
        // Keyed by file and line (a `Line`, not the text "file:line" made per query: the same
        // pairs, as a line number holds no colon).
        let predicateCodes = Set(PredicateRules.all.map(\.code))
        let kept = found.filter { d in
            guard d.code == PredicateRules.typeMismatch.code, let l = d.location else { return true }
            return !untyped.contains(Line(file: l.file, line: l.line))
        }
        // The calls' places, gathered only when a predicate finding is left to move (each
        // query read in place: a filtered copy of every query was most of this function).
        guard kept.contains(where: { predicateCodes.contains($0.code) && $0.location != nil }) else { return kept }
        var moved: [Line: SourceLocation] = [:]
        for q in queries.indices where queries[q].relocate {
            let site = queries[q].site
            let line = Line(file: site.file, line: site.line)
            if moved[line] == nil { moved[line] = site }
        }
        return kept.map { d in
            guard predicateCodes.contains(d.code), let l = d.location, let site = moved[Line(file: l.file, line: l.line)] else { return d }
            var d = d
            d.location = site
            return d
        }
    }

    /// Declared queries (`queries:`) on a record type no scanned query runs on (CK908).
    func unusedDeclared(_ schema: Schema) -> [Diagnostic] {
        let run = Set(queries.map(\.query.recordType))
        return schema.queries.filter { !run.contains($0.recordType) }.map { q in
            Diagnostic(rule: ScanRules.declaredUnused, "declared query \(ControlCharacters.escaped(q.label)) is run by no scanned code; keep it if a server script or another platform runs it", at: q.origin.location ?? SourceLocation(file: "", line: 1, column: 1))
        }
    }
}
