/// The tool's version, as `--version`, JSON output and the store's history record it.
public enum CKSchemaVersion {
    public static let current = "0.1.0"
}
