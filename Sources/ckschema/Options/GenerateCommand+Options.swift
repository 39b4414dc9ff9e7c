import CKSchema

extension GenerateCommand {
    /// The access level of the generated declarations.
    enum Access: String, CaseIterable, Sendable { case `public`, `internal` }
}

extension GenerateSwift {
    /// `generate swift [SCHEMA]`'s options.
    struct Options: ParsableOptions {
        @Positionals(.optional("SCHEMA")) var words: [String]
        @Opt(Option.path("output", short: "o", help: "the folder to generate into (replaced whole)", valueName: "DIR",
                         default: "Generated").or("Generated")) var output: String
        @Opt(Option.text("namespace", help: "the enum the generated types live in", valueName: "NAME",
                         default: "CloudSchema").or("CloudSchema")) var namespace: String
        @Opt(Option.choice("access", help: "the access level of the generated API", values: GenerateCommand.Access.allCases,
                           default: "internal", noun: "an access level").or(GenerateCommand.Access.internal)) var access: GenerateCommand.Access
        @Opt(Flag("single-file", help: "write everything into DIR/NAME.swift (what the build-tool plugin uses)")) var singleFile: Bool
        @Group var report: ReportOptions
        @Group var model: ModelOptions

        /// The schema source named, if any.
        var path: String? { words.first }

        func validate() throws(UsageError) {
            if SwiftGenerator.isNamespace(namespace) == false {
                throw UsageError("--namespace needs a Swift type name (letters, digits and _, not a keyword), not '\(namespace)'")
            }
            if words.count > 1 { throw UsageError("generate swift takes one schema source") }
        }
    }
}
