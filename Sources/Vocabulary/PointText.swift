/// How traitd writes a number of points (or any number) for people: `1024` rather than `1024.0`, `561.5` as it
/// is. The one formatter of the project: status lines, error messages, layout files, the solver's expressions
/// and traitctl's output all write numbers with it, so a value reads the same everywhere.
extension Double {
    /// `1024` rather than `1024.0`; `561.5` stays; `inf`, `nan` and values past 1e15 as Swift writes them.
    public var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
