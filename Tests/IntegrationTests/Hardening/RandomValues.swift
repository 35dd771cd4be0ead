import DBus
import TestSupport

/// Random D-Bus values for fuzzing: any type, any nesting (within D-Bus's own 64), sizes from empty to large,
/// and strings that are almost right (valid names, near-misses, empty, long, odd Unicode).
enum RandomValues {
    static let basicTypes = Array("ybnqiuxtdsog")

    /// A random single complete type at most `depth` containers deep.
    static func signature(depth: Int, _ rng: inout SeededRandom) -> String {
        if depth <= 0 || rng.chance(0.5) { return String(rng.pick(basicTypes)) }
        switch rng.below(4) {
        case 0: return "a" + signature(depth: depth - 1, &rng)
        case 1: return "a{" + String(rng.pick(basicTypes)) + signature(depth: depth - 2, &rng) + "}"
        case 2: return "(" + (0..<rng.int(1...3)).map { _ in signature(depth: depth - 1, &rng) }.joined() + ")"
        default: return "v"
        }
    }

    /// A random value of the single complete type at the start of `signature`; returns it and what is left.
    static func value(_ signature: Substring, depth: Int, _ rng: inout SeededRandom) -> (DBusValue, Substring) {
        let code = signature.first!
        let rest = signature.dropFirst()
        switch code {
        case "y": return (.byte(UInt8(truncatingIfNeeded: rng.next())), rest)
        case "b": return (.boolean(rng.chance(0.5)), rest)
        case "n": return (.int16(Int16(truncatingIfNeeded: rng.next())), rest)
        case "q": return (.uint16(UInt16(truncatingIfNeeded: rng.next())), rest)
        case "i": return (.int32(Int32(truncatingIfNeeded: rng.next())), rest)
        case "u": return (.uint32(UInt32(truncatingIfNeeded: rng.next())), rest)
        case "x": return (.int64(Int64(bitPattern: rng.next())), rest)
        case "t": return (.uint64(rng.pick([0, 1, 2, 3, 100, UInt64.max, rng.next()])), rest)
        case "d": return (.double(double(&rng)), rest)
        case "s": return (.string(string(&rng)), rest)
        case "o": return (.objectPath(rng.pick(["/", "/org/traitd/Layout1", "/org/traitd/Layout1/window/mail", "/a/b_c/D9"])), rest)
        case "g": return (.signature(rng.pick(["", "s", "a{sv}", "(dddd)", "aai"])), rest)
        case "v":
            let inner = depth > 1 ? self.signature(depth: min(depth - 1, 6), &rng) : "s"
            return (.variant(value(Substring(inner), depth: depth - 1, &rng).0), rest)
        case "a":
            let element = completeType(rest)
            let count = rng.chance(0.01) ? rng.int(50...200) : rng.int(0...4)
            var items: [DBusValue] = []
            for _ in 0..<(depth > 1 ? count : 0) {
                if element.first == "{" {
                    let inside = element.dropFirst().dropLast()
                    let (key, afterKey) = value(inside, depth: depth - 2, &rng)
                    let (item, _) = value(afterKey, depth: depth - 2, &rng)
                    items.append(.dictEntry(key, item))
                } else {
                    items.append(value(element, depth: depth - 1, &rng).0)
                }
            }
            return (.array(element: String(element), items), rest.dropFirst(element.count))
        case "(":
            var fields: [DBusValue] = []
            var inside = rest
            while inside.first != ")" {
                let (field, after) = value(inside, depth: depth - 1, &rng)
                fields.append(field)
                inside = after
            }
            return (.structure(fields), inside.dropFirst())
        default:
            return (.string("?"), rest)
        }
    }

    /// The single complete type at the start of `signature`.
    static func completeType(_ signature: Substring) -> Substring {
        var depth = 0
        var end = signature.startIndex
        repeat {
            let c = signature[end]
            if c == "(" || c == "{" { depth += 1 }
            if c == ")" || c == "}" { depth -= 1 }
            end = signature.index(after: end)
            if c == "a" { continue }
        } while depth > 0 || signature[signature.index(before: end)] == "a"
        return signature[..<end]
    }

    /// Values for a whole signature (several complete types).
    static func values(_ signature: String, depth: Int, _ rng: inout SeededRandom) -> [DBusValue] {
        var rest = Substring(signature)
        var out: [DBusValue] = []
        while !rest.isEmpty {
            let (v, after) = value(rest, depth: depth, &rng)
            out.append(v)
            rest = after
        }
        return out
    }

    static func double(_ rng: inout SeededRandom) -> Double {
        rng.pick([0, -0.0, 1, 200, 694, 1e308, -1e308, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
                  rng.unit() * 4000 - 2000])
    }

    static func string(_ rng: inout SeededRandom) -> String {
        switch rng.below(10) {
        case 0: return ""
        case 1: return String(repeating: "x", count: rng.chance(0.05) ? rng.pick([5000, 70_000]) : rng.pick([64, 65, 255, 256, 257]))
        case 2: return rng.pick(["ipad-9.7", "ipad-pro-12.9", "portrait", "landscape-left", "landscape-right", "portrait-upside-down"])
        case 3: return rng.pick(["full", "split-half", "split-one-third", "split-two-thirds", "slide-over"])
        case 4: return rng.pick(["mail", "notes", "maps", "primary", "secondary", "slide-over", "pip"])
        case 5: return rng.pick(["a b", "../etc", "mail\u{7f}", "é", "🙂", "x.y", "-", "_", "org.traitd.Layout1.Display"])
        case 6: return rng.pick(["sidebar", "fuzz-adapter", "error", "a.b-c_d"])
        default:
            let letters = Array("abcXYZ019-_. /\\:{}'\"\u{1}\u{a0}")
            return String((0..<rng.int(1...12)).map { _ in rng.pick(letters) })
        }
    }
}
