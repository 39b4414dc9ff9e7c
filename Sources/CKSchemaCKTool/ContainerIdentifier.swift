/// A CloudKit container identifier: `iCloud.` and a reverse-DNS name, as Xcode and the
/// CloudKit Console create them (PullRules.containerIdentifier cites the source).
public enum ContainerIdentifier {
    /// True for `iCloud.com.example.App`: at least two dot-separated labels after `iCloud.`,
    /// each of ASCII letters, digits, `-` or `_`, not empty.
    public static func isValid(_ s: String) -> Bool {
        guard s.hasPrefix("iCloud."), s.utf8.count <= 255 else { return false }
        let labels = s.dropFirst("iCloud.".count).split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
            }
        }
    }

    /// Why `s` is refused, for a message; nil when it is valid.
    public static func problem(_ s: String) -> String? {
        if isValid(s) { return nil }
        if !s.hasPrefix("iCloud.") { return "a container identifier starts with 'iCloud.'" }
        return "after 'iCloud.' a container identifier is a reverse-DNS name of letters, digits, '-' and '_' (iCloud.com.example.App)"
    }
}
