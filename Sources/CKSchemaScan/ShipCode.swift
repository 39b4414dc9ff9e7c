import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaSwift

/// The batch and CKSyncEngine code that treats a batch as a success while records failed
/// (issue 34, CK930-CK935): per-record results never read, an engine on the public database
/// or fed default-zone record IDs, event handlers that never read the failures, the engine's
/// state saved with `try?`. Silent on what it cannot resolve, as the rest of the scan.
struct ShipCode {
    /// Findings certain from this file alone.
    var diagnostics: [Diagnostic] = []
    /// Handler findings that stand only if no scanned file reads the failures (the event is
    /// passed to a function the scan does not follow): the word that would answer them.
    var unlessRead: [(word: String, finding: Diagnostic)] = []
    /// The words of `unlessRead` this file contains.
    var reads: Set<String> = []
    /// The `try?` tokens already reported.
    private var flagged: Set<Int> = []

    init() {}

    /// Every word the switches below name: any other name reaches only their `default`.
    private static let names = ScanNames([
        "failedRecordSaves", "deletions", "perRecordSaveBlock", "perRecordCompletionBlock", "CKSyncEngine", "pendingRecordZoneChanges",
        "modifyRecords", "CKModifyRecordsOperation", "saveRecord", "deleteRecord", "Configuration", "sentRecordZoneChanges",
        "fetchedRecordZoneChanges", "try", "stateUpdate",
    ])

    init(_ r: SwiftCallReader, _ g: ScanGlobals) {
        let s = r.s
        let n = s.tokens.count
        // Each name token's word, once: the two passes switch over it.
        var known: [(token: Int, word: String)] = []
        for i in 0..<n { if let k = Self.names.index(s, i) { known.append((i, Self.names.words[k])) } }
        var words: Set<String> = []
        for (_, word) in known where word != "try" {
            switch word {
            case "failedRecordSaves", "deletions", "perRecordSaveBlock", "perRecordCompletionBlock", "CKSyncEngine", "pendingRecordZoneChanges": words.insert(word)
            default: break
            }
        }
        reads = words.intersection(["failedRecordSaves", "deletions"])
        let engine = words.contains("CKSyncEngine") || words.contains("pendingRecordZoneChanges")
        for (i, word) in known {
            // `try` matters only before `?` (its case below, the one that names it): `try await`,
            // the most common of the words here, is not compared with every case.
            if word == "try", !s.is(i + 1, "?") { continue }
            switch word {
            case "modifyRecords" where s.is(i - 1, .period) && s.is(i + 1, .leftParen):
                modifyRecords(r, i)
            case "CKModifyRecordsOperation" where s.is(i + 1, .leftParen) && !words.contains("perRecordSaveBlock") && !words.contains("perRecordCompletionBlock"):
                operation(r, i)
            case "saveRecord", "deleteRecord":
                guard engine, s.is(i - 1, .period), !s.isName(i - 2), !s.is(i - 2, .rightParen), s.is(i + 1, .leftParen),
                      let a = r.arguments(i + 1).first, a.label == nil, let v = r.values(a.start, r.body(at: a.start), g), !v.isEmpty,
                      v.allSatisfy({ $0 == .recordID(zone: Zone.defaultZoneName) }) else { continue }
                diagnostics.append(Diagnostic(rule: ShipRules.engineDefaultZone, "CKSyncEngine is handed .\(s.name(i))(...) of a record ID in the default zone: the engine syncs custom zones, so this change never reaches the other devices", at: s.location(i), fix: "give the record ID a zone: CKRecord.ID(recordName: name, zoneID: CKRecordZone.ID(zoneName: \"...\")), and save that zone first (.saveZone)"))
            case "Configuration" where s.is(i - 1, .period) && s.is(i - 2, "CKSyncEngine") && s.is(i + 1, .leftParen):
                guard let a = r.argument(i + 1, "database"), let v = r.values(a, r.body(at: a), g), v == [.database(.public)] else { continue }
                diagnostics.append(Diagnostic(rule: ShipRules.enginePublicDatabase, "CKSyncEngine.Configuration(database:) is given the public database: CKSyncEngine syncs the private and shared databases only", at: s.location(a), fix: "give it container.privateCloudDatabase (or sharedCloudDatabase), and read public records with queries"))
            case "sentRecordZoneChanges" where s.is(i - 1, .period) && s.is(i - 2, "case"):
                handler(r, i, reads: "failedRecordSaves", what: "records the server refused (event.failedRecordSaves)", fix: "read event.failedRecordSaves: retry a serverRecordChanged conflict with the server's record, fix or drop the others, and say so")
            case "fetchedRecordZoneChanges" where s.is(i - 1, .period) && s.is(i - 2, "case"):
                handler(r, i, reads: "deletions", what: "records deleted on other devices (event.deletions)", fix: "read event.deletions and delete each record locally")
            case "try" where s.is(i + 1, "?"):
                stateTry(r, i)
            case "stateUpdate" where s.is(i - 1, .period) && s.is(i - 2, "case"):
                guard let body = caseBody(s, i) else { continue }
                let (start, end) = body
                for k in start..<end where s.is(k, "try") && s.is(k + 1, "?") && !flagged.contains(k) {
                    flagged.insert(k)
                    diagnostics.append(Diagnostic(rule: ShipRules.engineStateTry, "'try?' in the handler of .stateUpdate discards the error of saving CKSyncEngine's state: a failed save goes unseen, and the next launch syncs from an old position", at: s.location(k), fix: "use 'try' in a do/catch that logs the error and retries; the state must be saved after every .stateUpdate event"))
                }
            default: break
            }
        }
    }

    /// The extent `[start, end)` of the `case` body whose pattern holds token `i`: past the
    /// pattern's `:` up to the next `case` or `default` of the same switch, or its `}`.
    private func caseBody(_ s: SwiftSource, _ i: Int) -> (Int, Int)? {
        var k = i
        while k < s.tokens.count, !s.is(k, .colon) {
            if s.is(k, .leftBrace) || s.is(k, .rightBrace) || s.is(k, .endOfFile) { return nil }
            k = s.skipGroup(k)
        }
        let start = k + 1
        var j = start
        while j < s.tokens.count, !s.is(j, .rightBrace), !s.is(j, .endOfFile), !s.is(j, "case"), !s.is(j, "default") { j = s.skipGroup(j) }
        return j < s.tokens.count ? (start, j) : nil
    }

    /// `case .sentRecordZoneChanges(let event):` whose body never reads `reads`.
    private mutating func handler(_ r: SwiftCallReader, _ i: Int, reads word: String, what: String, fix: String) {
        let s = r.s
        guard let body = caseBody(s, i) else { return }
        let (start, end) = body
        for k in start..<end where s.is(k, word) { return }
        // The event's name: `(let event)` or `(let event)` after `let` outside (`case let .x(event)`).
        var bound: String?
        if s.is(i + 1, .leftParen), let close = s.matching(i + 1) {
            for k in (i + 2)..<close where s.isName(k) && !s.is(k, "let") && !s.is(k, "var") { bound = s.name(k); break }
        }
        var escapes = false
        if let bound {
            for k in start..<end where s.is(k, bound) && !s.is(k + 1, .period) && !s.is(k - 1, .period) { escapes = true; break }
        }
        let d = Diagnostic(rule: ShipRules.engineFailuresUnread, "this handler of .\(s.name(i)) never reads the \(what): the batch is taken for a success", at: s.location(i), fix: fix)
        if escapes { unlessRead.append((word, d)) } else { diagnostics.append(d) }
    }

    /// `try?` on saving the engine's state: a failed save loses the sync position silently.
    private mutating func stateTry(_ r: SwiftCallReader, _ i: Int) {
        let s = r.s
        let e = r.end(i + 2)
        var state = false
        for k in i..<min(e, s.tokens.count) {
            if s.is(k, "decode") || s.is(k, "init") { return }
            if s.is(k, "stateSerialization") { state = true }
        }
        // `x = try? ...` / `let x = try? ...` where x is the state being read back: a load.
        if s.is(i - 1, "="), s.is(i - 2, "stateSerialization") { return }
        guard state, flagged.insert(i).inserted else { return }
        diagnostics.append(Diagnostic(rule: ShipRules.engineStateTry, "'try?' discards the error of saving CKSyncEngine's state serialization: a failed save goes unseen, and the next launch syncs from an old position", at: s.location(i), fix: "use 'try' in a do/catch that logs the error and retries; the state must be saved after every .stateUpdate event"))
    }

    /// `modifyRecords(saving:deleting:)` whose result is discarded or never read.
    private mutating func modifyRecords(_ r: SwiftCallReader, _ i: Int) {
        let s = r.s
        let args = r.arguments(i + 1)
        guard args.first?.label == "saving", args.contains(where: { $0.label == "deleting" }), !args.contains(where: { $0.label == "completionHandler" }),
              let close = s.matching(i + 1), !s.is(close + 1, .leftBrace) else { return }
        // A batch that saves nothing (`saving: []`) only deletes: a delete of a record already gone
        // is the usual failure, and apps ignore it on purpose.
        guard !(s.is(args[0].start, .leftBracket) && s.is(args[0].start + 1, .rightBracket)) else { return }
        // The receiver chain back to its first token: `db.modifyRecords`, `container.privateCloudDatabase.modifyRecords`.
        var c = i - 1
        while s.is(c, .period) {
            var k = c - 1
            if s.is(k, .rightParen), let open = s.matching(k) { k = open - 1 }
            guard s.isName(k) else { return }
            c = k - 1
        }
        var p = c
        while s.is(p, "await") || s.is(p, "try") || s.is(p, "?") || s.is(p, "!") { p -= 1 }
        // What is done with the result.
        if s.is(close + 1, .period) { return }
        var unread: String?
        if s.is(p, "="), s.is(p - 1, "_") {
            unread = "its result is assigned to '_'"
        } else if s.is(p, "="), s.isName(p - 1), s.is(p - 2, "let") || s.is(p - 2, "var") {
            let name = s.name(p - 1)
            if !used(r, name, after: close) { unread = "its result '\(name)' is never read" }
        } else if s.is(p, "="), s.is(p - 1, .rightParen), let open = s.matching(p - 1), s.is(open - 1, "let") || s.is(open - 1, "var") {
            let parts = r.arguments(open)
            guard parts.count == 2 else { return }
            let first = parts[0].start
            if s.is(first, "_") { unread = "its save results are bound to '_'" }
            else if s.isName(first), s.is(first + 1, .comma) || s.is(first + 1, .rightParen), !used(r, s.name(first), after: close) { unread = "its save results '\(s.name(first))' are never read" }
        } else if p < 0 || s.tokens[p + 1].flags.contains(.newlineBefore) || s.is(p, .leftBrace) || s.is(p, .semicolon) || s.is(p, .rightBrace) {
            // A statement of its own (the method is @discardableResult).
            unread = "its result is discarded"
        }
        guard let unread else { return }
        diagnostics.append(Diagnostic(rule: ShipRules.perRecordUnread, "modifyRecords(saving:deleting:) reports each record's result, and \(unread): a record CloudKit refused (a conflict, a quota, a schema error) is dropped while the batch looks like a success", at: s.location(i), fix: "read saveResults (and deleteResults): for (id, result) in saveResults { if case .failure(let error) = result { ... } }"))
    }

    /// A name read after token `k` in the function holding it.
    private func used(_ r: SwiftCallReader, _ name: String, after k: Int) -> Bool {
        let scope = r.body(at: k)
        guard scope >= 0 else { return true }
        let end = r.bodies[scope].1
        var j = k + 1
        while j < end {
            if r.s.is(j, name), !r.s.is(j - 1, .period) { return true }
            j += 1
        }
        return false
    }

    /// `CKModifyRecordsOperation` with a `modifyRecordsResultBlock` and no per-record save block
    /// anywhere in the file (the caller checked the file has none).
    private mutating func operation(_ r: SwiftCallReader, _ i: Int) {
        let s = r.s
        guard s.is(i - 1, "="), s.isName(i - 2), s.is(i - 3, "let") || s.is(i - 3, "var") else { return }
        if let a = r.argument(i + 1, "recordsToSave"), s.is(a, "nil") || (s.is(a, .leftBracket) && s.is(a + 1, .rightBracket)) { return }
        let name = s.name(i - 2)
        let scope = r.body(at: i)
        guard scope >= 0 else { return }
        let end = r.bodies[scope].1
        for k in (i + 1)..<end where s.is(k, name) && s.is(k + 1, .period) && s.is(k + 2, "modifyRecordsResultBlock") && s.is(k + 3, "=") {
            // A closure that looks at a failure (a partial failure holds the per-record errors)
            // is not flagged, nor a block the scan cannot see into.
            guard s.is(k + 4, .leftBrace), let close = s.matching(k + 4) else { return }
            for j in (k + 4)..<close where s.is(j, "failure") || s.is(j, "partialFailure") || s.is(j, "partialErrorsByItemID") { return }
            diagnostics.append(Diagnostic(rule: ShipRules.operationNoPerRecord, "'\(name)' (CKModifyRecordsOperation) sets a modifyRecordsResultBlock that never looks at a failure, and no perRecordSaveBlock: which records CloudKit refused is reported per record, and this code never sees it", at: s.location(k + 2), fix: "set \(name).perRecordSaveBlock = { id, result in if case .failure(let error) = result { ... } }"))
            return
        }
    }

    /// The findings of every file: a handler finding that waited on another file's reading stands
    /// only when no scanned file reads the word.
    static func merged(_ all: [ShipCode]) -> [Diagnostic] {
        let read = all.reduce(into: Set<String>()) { $0.formUnion($1.reads) }
        return all.flatMap { f in f.diagnostics + f.unlessRead.filter { !read.contains($0.word) }.map(\.finding) }
    }
}
