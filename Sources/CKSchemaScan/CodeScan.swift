import Foundation
import CKSchemaDiagnostics
import CKSchemaLinter
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaSwift

/// `ckschema scan`: the app's Swift sources read for their CloudKit calls, each checked
/// against a schema environment. Reports only what it resolved (docs/scan.md).
public enum CodeScan {
    /// What one scan found.
    public struct Result: Sendable {
        /// Findings at the call sites, sorted by place.
        public var diagnostics: [Diagnostic] = []
        /// What `--verbose` adds: calls not resolved (CK907), declared queries no code runs (CK908).
        public var notes: [Diagnostic] = []
        /// The app's CloudKit surface (`scan --format json`).
        public var surface = CodeSurface()
        /// The subscriptions the code saves.
        public var subscriptions: [Subscription] = []
        /// The database each of `subscriptions` is saved to, nil where the scan cannot tell (its
        /// `database` then is only a stand-in under which no database rule fires).
        public var subscriptionDatabases: [Database?] = []
        /// The first place the sources share records, as `sharingUse` finds it: `check`'s
        /// promote step reads it from the scan, so the sources are lexed once.
        public var sharing: (what: String, at: SourceLocation)?
        /// The Swift files read.
        public var files = 0
        /// True when a path could not be read (exit 2).
        public var failed = false
    }

    /// Folders never descended into: build products and vendored code.
    public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", ".git"]

    /// How the scan walks a folder (`FolderWalk`): each real folder once, inside the folder
    /// given. One walk finds the Swift sources and the bundle's property lists (`AppBundle`).
    static let walkOptions = FolderWalk.Options(skipFolder: { skippedFolders.contains($0) }, includeFile: { isSwiftFile($0) || AppBundle.isPropertyList($0) })

    /// True for a Swift source's name (or path).
    static func isSwiftFile(_ name: String) -> Bool { name.hasSuffix(".swift") }

    /// The `.swift` files under `paths` (files or folders, recursive), sorted per folder; a
    /// folder that cannot be read is CK001 naming it, as a file that cannot be read is.
    public static func swiftFiles(_ paths: [String]) -> (files: [String], errors: [Diagnostic]) {
        let walked = walk(paths)
        return (walked.files, walked.errors)
    }

    /// `swiftFiles`, with the walk's notes (CK016: a folder not searched, `--verbose`) and the
    /// folder readers given (a test's).
    public static func walk(_ paths: [String], reader: any FolderWalk.Reader = FolderWalk.SystemReader()) -> (files: [String], errors: [Diagnostic], notes: [Diagnostic]) {
        let walked = walkSources(paths, reader: reader)
        return (walked.files, walked.errors, walked.notes)
    }

    /// What one walk of `paths` finds: the Swift files (a file given stands for itself), the
    /// property lists of the folders (`AppBundle.isPropertyList`), the errors and the notes.
    struct Walk {
        var files: [String] = [], propertyLists: [String] = []
        var errors: [Diagnostic] = [], notes: [Diagnostic] = []
    }

    /// Walks `paths` once for the sources and the property lists beside them.
    static func walkSources(_ paths: [String], reader: any FolderWalk.Reader) -> Walk {
        var out = Walk()
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                out.errors.append(Diagnostic(rule: ScanRules.unreadable, "'\(ControlCharacters.escaped(path))' does not exist", at: SourceLocation(file: path, line: 1, column: 1), fix: "give a Swift file or a folder of Swift sources"))
                continue
            }
            if !isDir.boolValue { out.files.append(path); continue }
            let walked = FolderWalk.walk(path, options: walkOptions, reader: reader)
            let sources = walked.files.filter(isSwiftFile)
            out.notes += walked.notes
            if !walked.errors.isEmpty {
                // CK001, as for a file that cannot be read.
                out.errors += walked.errors
            } else if sources.isEmpty {
                out.errors.append(Diagnostic(rule: ScanRules.unreadable, "'\(ControlCharacters.escaped(path))' holds no Swift file", at: SourceLocation(file: path, line: 1, column: 1), fix: "give the folder of the app's Swift sources"))
            }
            out.files += sources
            out.propertyLists += walked.files.filter { !isSwiftFile($0) }
        }
        return out
    }

    /// The codes a scan without a schema reports: what CloudKit refuses whatever the schema
    /// holds. A predicate CloudKit cannot run (OR, a function: CK700, CK701), a desired key
    /// listed twice or more desired keys than a notification carries (CK711, CK715), a
    /// subscription in a database that has no such subscriptions or one on the default zone
    /// (CK712, CK713), a query subscription that fires on nothing (CK714), a default zone's
    /// changes fetched or the default zone deleted (CK905, CK906).
    public static let schemaFreeCodes: Set<String> = [
        PredicateRules.syntax.code, PredicateRules.unsupported.code,
        "CK711", "CK712", "CK713", "CK714", "CK715",
        ScanRules.defaultZoneChanges.code, ScanRules.defaultZoneDelete.code,
    ]

    /// Scans the Swift sources under `paths` against `schema` in `environment`; `lint` gives
    /// the severities and switched-off codes of ckschema.yaml. Without a schema (nil) only the
    /// checks that need none run (`schemaFreeCodes`), and the surface is the code's alone.
    /// The `.entitlements` and `Info.plist` files under the folders are checked against the
    /// code and `container` (ckschema.yaml's `container:`), CK920-CK928.
    /// `reader` lists the folders (a test's, to make one fail).
    public static func run(paths: [String], schema: Schema?, environment: Environment = .production, lint: RuleSettings = RuleSettings(), container: String? = nil,
                           reader: any FolderWalk.Reader = FolderWalk.SystemReader()) -> Result {
        var result = Result()
        let walked = walkSources(paths, reader: reader)
        result.diagnostics += walked.errors
        result.notes += walked.notes
        result.failed = !walked.errors.isEmpty
        var readErrors: [Diagnostic] = []
        let bundle = AppBundle.read(walked.propertyLists, load: { try? InputFile.read(path: $0, limit: PropertyList.maxBytes) })
        scan(walked.files, load: { read($0, &readErrors) }, schema: schema, environment: environment, lint: lint, bundle: bundle, container: container ?? schema?.container, into: &result)
        result.diagnostics = (result.diagnostics + readErrors).sortedByLocation()
        result.failed = result.failed || !readErrors.isEmpty
        return result
    }

    /// The first place the Swift sources under `paths` share records (`CKShare(...)`,
    /// `UICloudSharingController`, `container.share(...)`, `userDidAcceptCloudKitShareWith`,
    /// `CKShareTransferRepresentation`: the calls CK928 reads), nil when none does. `promote`
    /// and `check` read it to require sharing's schema in production (CK320, CK321); a file
    /// that cannot be read or lexed is left to the scan to report. A scan gives the same
    /// (`Result.sharing`): this is for a caller that runs none.
    public static func sharingUse(paths: [String]) -> (what: String, at: SourceLocation)? {
        let globals = ScanGlobals()
        for file in swiftFiles(paths).files {
            guard let data = try? InputFile.read(path: file) else { continue }
            let source = SwiftSource(data, file: file)
            guard source.problems.isEmpty else { continue }
            if let found = ShipFacts(SwiftCallReader(source), globals).sharing { return found }
        }
        return nil
    }

    /// Scans Swift sources held in memory (`file` names each in locations): the fuzz target's
    /// entry, and the same pass as `run`.
    package static func run(sources: [(file: String, data: Data)], schema: Schema, environment: Environment = .production) -> Result {
        var result = Result()
        let byName = Dictionary(sources.map { ($0.file, $0.data) }, uniquingKeysWith: { a, _ in a })
        scan(sources.map(\.file), load: { byName[$0] }, schema: schema, environment: environment, lint: RuleSettings(), into: &result)
        return result
    }

    private static func scan(_ files: [String], load: (String) -> Data?, schema given: Schema?, environment: Environment, lint: RuleSettings,
                             bundle: (files: [AppBundle.File], diagnostics: [Diagnostic]) = ([], []), container: String? = nil, into result: inout Result) {
        let schema = given ?? Schema()
        // One pass, each file lexed once: its constants join the globals, then its calls are
        // read. A file whose lookups a later file changed is read again at the end.
        let globals = ScanGlobals()
        var suppressions: [Suppression] = []
        var sources: [String] = []
        let blank = ScanCollector(schema: schema, environment: environment, hasSchema: given != nil)
        var collector = blank
        var read: [String] = [], marks: [ScanCollector.Mark] = []
        var facts: [ShipFacts] = [], code: [ShipCode] = []
        for file in files {
            guard let data = load(file) else { continue }
            sources.append(file)
            let source = SwiftSource(data, file: file)
            let reader = SwiftCallReader(source)
            globals.add(reader, index: read.count)
            if !source.problems.isEmpty {
                result.diagnostics += source.diagnostics(rule: SwiftRules.syntax)
                result.failed = true
                continue
            }
            suppressions += Suppression.scan(data, file: file)
            read.append(file)
            marks.append(collector.mark)
            collector.read(reader, globals)
            facts.append(ShipFacts(reader, globals))
            code.append(ShipCode(reader, globals))
            result.files += 1
        }
        marks.append(collector.mark)
        // A file named twice is read again wherever it stands, so one name has one reading.
        let staleNames = Set(globals.stale.map { read[$0] })
        var redone: [Int: ScanCollector] = [:]
        for (index, file) in read.enumerated() where staleNames.contains(file) {
            guard let data = load(file) else { continue }
            var again = blank
            let reader = SwiftCallReader(SwiftSource(data, file: file))
            again.read(reader, globals)
            facts[index] = ShipFacts(reader, globals)
            code[index] = ShipCode(reader, globals)
            redone[index] = again
        }
        collector.replace(redone, files: read, marks: marks)
        // The queries and subscriptions found go through lint's own rules, as declared ones do.
        var probe = schema
        probe.queries = collector.queries.map(\.query)
        // A subscription whose database is not known is not checked for it: it stands in the
        // database its record type lives in (private when the schema does not say).
        let types = Dictionary(schema.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        probe.subscriptions = zip(collector.subscriptions, collector.subscriptionDatabases).map { sub, db in
            var sub = sub
            sub.database = db ?? (sub.kind == .query ? sub.recordType.flatMap { types[$0] }.flatMap { schema.database(of: $0) } : nil) ?? .private
            return sub
        }
        // A schema that names no zones (a `.ckdb`, a YAML file without `zone:`) says nothing
        // about them: a custom zone the code names is no unknown zone there.
        if !collector.namesZones {
            let named = Set(collector.subscriptions.compactMap(\.zone)).subtracting([Zone.defaultZoneName])
            probe.zones += named.sorted().map { Zone(name: $0, capabilities: Set(ZoneCapability.allCases)) }
        }
        probe.suppressions = SuppressionList(suppressions)
        let scanned = Set(sources)
        let reused = Set(ScanCollector.reusedCodes)
        // Only the rules whose findings are kept run (a query's deprecated fields, CK119, and
        // the schema's own rules are `lint`'s to report, not the scan's).
        var found = Linter(configuration: lint).lint(probe, only: reused).filter { d in
            guard let f = d.location?.file, scanned.contains(f) else { return false }
            guard given != nil || schemaFreeCodes.contains(d.code) else { return false }
            return reused.contains(d.code) || d.code == LintRules.suppressionWithoutReason.code
        }
        found = collector.relocate(found)
        let merged = ShipFacts.merged(facts)
        let shipped = ShipCode.merged(code) + bundle.diagnostics + AppBundle.check(bundle.files, facts: merged, container: container)
        let own = Suppressions(suppressions).filter((collector.diagnostics + shipped).map { d in
            var d = d
            if let s = lint.severities[d.code] { d.severity = s }
            return d
        }.filter { !lint.disabled.contains($0.code) })
        result.diagnostics += found + own
        result.diagnostics = result.diagnostics.sortedByLocation()
        result.notes = (result.notes + collector.unresolved + collector.unusedDeclared(schema)).sortedByLocation()
        result.surface = collector.surface
        result.sharing = merged.sharing
        result.subscriptions = probe.subscriptions
        result.subscriptionDatabases = collector.subscriptionDatabases
    }

    private static func read(_ file: String, _ errors: inout [Diagnostic]) -> Data? {
        do { return try InputFile.read(path: file) } catch {
            // A file read again (its lookups changed) and then unreadable: the error is reported once.
            if !errors.contains(where: { $0.location?.file == file }) { errors += error.diagnostics }
            return nil
        }
    }
}
