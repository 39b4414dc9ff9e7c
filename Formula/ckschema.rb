# Homebrew formula: builds ckschema from source with the Swift toolchain.
#   brew install --HEAD ckschema/tap/ckschema        (from a tap holding this file)
#   brew install --HEAD --formula ./Formula/ckschema.rb
# A release adds `url` and `sha256` of its source archive (scripts/build-release.sh
# prints the archive's SHA-256).
class Ckschema < Formula
  desc "CloudKit container schema as code: lint, diff, promote, validate, migrate"
  homepage "https://github.com/ckschema/ckschema"
  head "https://github.com/ckschema/ckschema.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on "libyaml"
  uses_from_macos "sqlite"

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "ckschema"
    bin.install ".build/release/ckschema"
    generate_completions_from_executable(bin/"ckschema", "completion")
    (man1/"ckschema.1").write Utils.safe_popen_read(bin/"ckschema", "man")
  end

  test do
    system bin/"ckschema", "init", "--container", "iCloud.com.example.Test"
    system bin/"ckschema", "check"
    assert_match "ckschema #{version}", shell_output("#{bin}/ckschema --version") if build.stable?
  end
end
