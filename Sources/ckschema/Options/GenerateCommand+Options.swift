import CKSchema

extension GenerateCommand {
    /// The access level of the generated declarations.
    enum Access: String, CaseIterable, Sendable { case `public`, `internal` }

    /// generate's options.
    struct Options: ParsableOptions {
        static let outputOption = Option.path("output", short: "o", help: "the folder to generate into (replaced whole)", valueName: "DIR",
                                              default: "Generated")
        static let namespaceOption = Option.text("namespace", help: "the enum the generated types live in", valueName: "NAME",
                                                 default: "CloudSchema")
        static let accessOption = Option.choice("access", help: "the access level of the generated API", values: Access.allCases,
                                                default: "internal", noun: "an access level").or(Access.internal)
        static let singleFileFlag = Flag("single-file", help: "write everything into DIR/NAME.swift (what the build-tool plugin uses)")
        static let specs = [outputOption.spec, namespaceOption.spec, accessOption.spec, singleFileFlag.spec] + ReportOptions.specs + ModelOptions.specs

        var output: String
        var namespace: String
        var access: Access
        var singleFile: Bool
        var report: ReportOptions
        var model: ModelOptions
        /// The words after the subcommand's.
        var arguments: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            output = try arguments.value(Self.outputOption) ?? "Generated"
            namespace = try arguments.value(Self.namespaceOption) ?? "CloudSchema"
            if SwiftGenerator.isNamespace(namespace) == false {
                throw UsageError("--namespace needs a Swift type name (letters, digits and _, not a keyword), not '\(namespace)'")
            }
            access = try arguments.value(Self.accessOption)
            singleFile = arguments.flag(Self.singleFileFlag)
            report = try ReportOptions(arguments)
            model = try ModelOptions(arguments)
            self.arguments = arguments.positionals
        }
    }
}
