import CKSchema

extension GenerateCommand {
    /// The access level of the generated declarations.
    enum Access: String, CaseIterable, Sendable { case `public`, `internal` }

    /// generate's options.
    struct Options: ParsableOptions {
        @Opt(Option.path("output", short: "o", help: "the folder to generate into (replaced whole)", valueName: "DIR",
                         default: "Generated").or("Generated")) var output: String
        @Opt(Option.text("namespace", help: "the enum the generated types live in", valueName: "NAME",
                         default: "CloudSchema").or("CloudSchema")) var namespace: String
        @Opt(Option.choice("access", help: "the access level of the generated API", values: Access.allCases,
                           default: "internal", noun: "an access level").or(Access.internal)) var access: Access
        @Opt(Flag("single-file", help: "write everything into DIR/NAME.swift (what the build-tool plugin uses)")) var singleFile: Bool
        @Group var report: ReportOptions
        @Group var model: ModelOptions
        /// The words after the subcommand's.
        @Positionals() var arguments: [String]

        func validate() throws(UsageError) {
            if SwiftGenerator.isNamespace(namespace) == false {
                throw UsageError("--namespace needs a Swift type name (letters, digits and _, not a keyword), not '\(namespace)'")
            }
        }
    }
}
