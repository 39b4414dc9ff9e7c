import CKSchema
import Foundation

/// `ckschema init`: ckschema.yaml, Schemas/ and Migrations/ for a new repository.
enum InitCommand: OptionsCommand {
    static let name = "init"
    static let summary = "Write ckschema.yaml, Schemas/ and Migrations/ for a new repository."
    static let help = """
        Writes into FOLDER (default: the current folder): ckschema.yaml, the development
        schema (YAML), the production schema as Schemas/production.ckdb (what 'ckschema pull'
        refreshes from CloudKit), the JSON Schema editors use (Schemas/ckschema.schema.json),
        Migrations/, and '.ckschema/' in .gitignore. Refuses to overwrite an existing file
        unless --force is given. The container identifier is 'iCloud.' and a reverse-DNS name.
        With --from-production (an app already in production), the export given becomes
        Schemas/production.ckdb and the development schema, and 'migrate baseline' records
        it as Migrations/0001_baseline.yaml, applied to the store's production and development.

        With --from-production the container is never made up: without --container it is
        the one an existing ckschema.yaml in FOLDER names, else the one the app's .entitlements
        file (key com.apple.developer.icloud-container-identifiers) lists, and init says where
        it found it; when none names one, or they name several, init refuses.

        examples:
          ckschema init --container iCloud.com.example.Notes
          ckschema init --from-production Schemas/production.ckdb --container iCloud.com.example.Notes
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let root = options.folder
        let container = try container(options, io: &io)
        if let problem = ContainerIdentifier.problem(container) {
            throw InputError(Diagnostic(rule: PullRules.containerIdentifier, "'\(ControlCharacters.escaped(container))' is not a container identifier: \(problem)", at: nil,
                                    fix: "pass --container iCloud.com.example.App, the identifier Xcode shows under Signing & Capabilities > iCloud"))
        }
        var files = ProjectTemplate.files(container: container)
        let fm = FileManager.default
        // An app in production: its export is read (and refused if malformed or empty) before anything is written.
        let adopted = try options.fromProduction.map { (path: String) throws(InputError) in try ProjectTemplate.adopting(production: path, container: container, root: root) }
        if let adopted { files = ProjectTemplate.replacing(files, with: adopted.files) }
        if !options.force {
            let existing = files.map { (root as NSString).appendingPathComponent($0.path) }.filter { fm.fileExists(atPath: $0) }
            if !existing.isEmpty {
                throw InputError(existing.map {
                    Diagnostic(rule: InputRules.unreadable, "'\($0)' exists already; init changes nothing",
                           at: SourceLocation(file: $0, line: 1, column: 1), fix: "pass --force to overwrite it")
                })
            }
        }
        for f in files {
            let path = (root as NSString).appendingPathComponent(f.path)
            try? fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try InputFile.write(f.text, to: path)
            io.write("created \(path)\n")
        }
        let ignore = (root as NSString).appendingPathComponent(".gitignore")
        if let text = ProjectTemplate.gitignore(adding: fm.contents(atPath: ignore).map { String(decoding: $0, as: UTF8.self) }) {
            try InputFile.write(text, to: ignore)
            io.write("added \(ProjectTemplate.gitignoreLine) to \(ignore)\n")
        }
        if let adopted {
            let source = (root as NSString).appendingPathComponent(ProjectTemplate.productionPath)
            // The development schema has cktool's default Users when the export has none (every
            // container has one; CKDBImporter adds it, as `cktool import-schema` keeps it): the
            // baseline builds the same, or the first `check` fails with CK533 (issue 35 point 9).
            let store = (root as NSString).appendingPathComponent(".ckschema/store.sqlite")
            let r = try MigrateBaseline.baseline(source: source, usersFrom: adopted.schema, migrations: (root as NSString).appendingPathComponent("Migrations"),
                                                 store: store, force: options.force)
            MigrateBaseline.write(r, store: store, io: &io)
            return .success
        }
        io.write("next: edit Schemas/development.yaml, then run 'ckschema check'\n")
        return .success
    }

    /// `--container`; for a new project the template's example; with --from-production, the
    /// container ckschema.yaml or the app's .entitlements names, said, else a refusal.
    static func container(_ options: Options, io: inout Output) throws -> String {
        if let given = options.containerOption { return given }
        guard options.fromProduction != nil else { return "iCloud.com.example.App" }
        let result = try ContainerDiscovery.search(root: options.folder)
        if let found = result.found {
            io.write("container \(ControlCharacters.escaped(found.container)), from \(ControlCharacters.escaped(found.source))\n")
            return found.container
        }
        if !result.ambiguous.isEmpty {
            let listed = result.ambiguous.prefix(4).map { "\(ControlCharacters.escaped($0.source)) (\($0.containers.map { ControlCharacters.escaped($0) }.joined(separator: ", ")))" }.joined(separator: "; ")
            throw UsageError("init --from-production: the app's .entitlements name several containers: \(listed); pass the one this schema is for with --container")
        }
        throw UsageError("init --from-production needs the app's container, and no ckschema.yaml or .entitlements file (\(ContainerDiscovery.entitlementKey)) in '\(ControlCharacters.escaped(options.folder))' names one; pass it: --container iCloud.com.example.App, the identifier Xcode shows under Signing & Capabilities > iCloud")
    }
}
