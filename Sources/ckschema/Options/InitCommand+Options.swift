import CKSchema

extension InitCommand {
    /// init's options: the folder, the container identifier, --force.
    struct Options: ParsableOptions {
        @Positionals(.optional("FOLDER")) var folders: [String]
        @Opt(Option.text("container", help: "the iCloud container identifier (iCloud. and a reverse-DNS name)", valueName: "ID",
                         default: "iCloud.com.example.App; with --from-production, ckschema.yaml's or the app's .entitlements")) var containerOption: String?
        @Opt(Flag("force", help: "overwrite files that exist")) var force: Bool
        @Opt(.path("from-production", help: "adopt an app already in production: this export (.ckdb, YAML) becomes Schemas/production.ckdb, the development schema and the baseline migration, recorded in the store",
                   valueName: "SCHEMA")) var fromProduction: String?

        var folder: String { folders.first ?? "." }

        func validate() throws(UsageError) {
            if folders.count > 1 { throw UsageError("init takes at most one folder") }
        }
    }
}
