// The C++ peer of the solver benchmark: runs a workload (Benchmarks/workloads/README.md) with kiwi's C++ core,
// the engine inside kiwisolver, without Python. `make bench-solver` builds it with g++ against the headers of
// the kiwisolver sdist (scripts/build-kiwi-peer.sh) and runs it beside our engine.
//
//   kiwi-peer WORKLOAD [--builds R] [--loops L] [--churn K] [--trace FILE] [--build-seconds S]
//
// --build-seconds: stop building once S seconds of builds are done (after one at least), for orders of a
// workload where one build of kiwi's takes most of a minute.
//
// Prints one JSON object: the same phases, timed the same way, as Benchmarks/SolverBenchmark. kiwi cannot change
// a constraint's constant, so `setc` (and a trace's `setc` lines) remove the constraint and add a new one.
#include <kiwi/kiwi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Item {
    std::vector<std::pair<double, std::string>> terms;
    kiwi::RelationalOperator op;
    double rhs;
    int priority;
};

struct Workload {
    std::vector<std::string> variables;
    std::vector<std::pair<std::string, int>> edits;
    std::vector<Item> constraints;
    std::vector<std::vector<std::pair<std::string, double>>> steps;
};

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "kiwi-peer: %s\n", what.c_str());
    std::exit(2);
}

Workload parse(const std::string& path) {
    std::ifstream in(path);
    if (!in) fail("cannot read " + path);
    Workload w;
    std::string raw;
    int number = 0;
    while (std::getline(in, raw)) {
        ++number;
        std::string line = raw.substr(0, raw.find('#'));
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind)) continue;
        if (kind == "var") {
            for (std::string name; words >> name;) w.variables.push_back(name);
        } else if (kind == "edit") {
            std::string name;
            int priority;
            if (!(words >> name >> priority)) fail(path + ":" + std::to_string(number) + ": expected edit NAME PRIORITY");
            w.edits.emplace_back(name, priority);
        } else if (kind == "c") {
            std::vector<std::string> tokens;
            for (std::string t; words >> t;) tokens.push_back(t);
            if (tokens.size() < 4 || tokens.back()[0] != '@') fail(path + ":" + std::to_string(number) + ": expected TERMS OP RHS @PRIORITY");
            Item item;
            item.priority = std::atoi(tokens.back().c_str() + 1);
            item.rhs = std::strtod(tokens[tokens.size() - 2].c_str(), nullptr);
            const std::string& op = tokens[tokens.size() - 3];
            item.op = op == "==" ? kiwi::OP_EQ : op == "<=" ? kiwi::OP_LE : kiwi::OP_GE;
            for (size_t i = 0; i + 3 < tokens.size(); ++i) {
                size_t star = tokens[i].find('*');
                item.terms.emplace_back(std::strtod(tokens[i].substr(0, star).c_str(), nullptr), tokens[i].substr(star + 1));
            }
            w.constraints.push_back(item);
        } else if (kind == "suggest") {
            std::vector<std::pair<std::string, double>> step;
            std::string name;
            double value;
            while (words >> name >> value) step.emplace_back(name, value);
            w.steps.push_back(step);
        } else {
            fail(path + ":" + std::to_string(number) + ": unknown line kind " + kind);
        }
    }
    return w;
}

// The strengths solver_peer.py gives each priority (kiwi's named strengths where the workloads use them).
double strength(int priority) {
    switch (priority) {
    case 1000: return kiwi::strength::required;
    case 750: return kiwi::strength::strong;
    case 600: return kiwi::strength::create(0, 100, 0);
    case 510: return kiwi::strength::create(0, 1, 0, 1.25);
    case 500: return kiwi::strength::medium;
    case 250: return kiwi::strength::weak;
    default: return kiwi::strength::create(0, 0, priority);
    }
}

struct Built {
    kiwi::Solver solver;
    std::map<std::string, kiwi::Variable> variables;
    std::vector<kiwi::Variable> editVariables;
    std::vector<kiwi::Constraint> constraints;
    std::vector<bool> present;
};

kiwi::Constraint make(const Item& item, const std::map<std::string, kiwi::Variable>& variables, double rhs) {
    std::vector<kiwi::Term> terms;
    for (const auto& [coefficient, name] : item.terms) terms.emplace_back(variables.at(name), coefficient);
    return kiwi::Constraint(kiwi::Expression(terms, -rhs), item.op, strength(item.priority));
}

void build(const Workload& w, Built& b) {
    for (const auto& name : w.variables) b.variables.emplace(name, kiwi::Variable(name));
    for (const auto& [name, priority] : w.edits) {
        b.solver.addEditVariable(b.variables.at(name), strength(priority));
        b.editVariables.push_back(b.variables.at(name));
    }
    for (const auto& item : w.constraints) {
        b.constraints.push_back(make(item, b.variables, item.rhs));
        b.solver.addConstraint(b.constraints.back());
        b.present.push_back(true);
    }
    b.solver.updateVariables();
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double checksum(const Built& b) {
    double sum = 0;
    for (const auto& [name, variable] : b.variables) sum += variable.value();
    return std::round(sum * 1e6) / 1e6;
}

// One line of a trace (`remove I`, `add I`, `setc I RHS`, `suggest V...`), read before the timing starts.
struct TraceOp {
    enum Kind { Remove, Add, SetConstant, Suggest } kind;
    size_t index = 0;
    std::vector<double> values;  // the new right-hand side (setc), or the suggested values
};

// `constraints`: how many the workload has; an index past them is refused with its line.
std::vector<TraceOp> readTrace(const std::string& path, size_t constraints) {
    std::ifstream in(path);
    if (!in) fail("cannot read " + path);
    std::vector<TraceOp> ops;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        std::istringstream words(line);
        std::string kind;
        if (!(words >> kind)) continue;
        TraceOp op;
        bool ok = true;
        if (kind == "remove" || kind == "add") {
            op.kind = kind == "remove" ? TraceOp::Remove : TraceOp::Add;
            ok = static_cast<bool>(words >> op.index);
        } else if (kind == "setc") {
            op.kind = TraceOp::SetConstant;
            double rhs = 0;
            ok = static_cast<bool>(words >> op.index >> rhs);
            op.values.push_back(rhs);
        } else if (kind == "suggest") {
            op.kind = TraceOp::Suggest;
            for (double value; words >> value;) op.values.push_back(value);
        } else {
            ok = false;
        }
        if (!ok) fail(path + ":" + std::to_string(number) + ": expected remove I, add I, setc I RHS or suggest V...");
        if (op.kind != TraceOp::Suggest && op.index >= constraints)
            fail(path + ":" + std::to_string(number) + ": constraint " + std::to_string(op.index) +
                 " is past the workload's " + std::to_string(constraints));
        ops.push_back(op);
    }
    return ops;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) fail("usage: kiwi-peer WORKLOAD [--builds R] [--loops L] [--churn K] [--trace FILE] [--build-seconds S]");
    std::string path = argv[1], tracePath;
    int builds = 11, loops = 200, churn = 1000;
    double buildSeconds = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string option = argv[i];
        if (option == "--builds") builds = std::atoi(argv[i + 1]);
        else if (option == "--loops") loops = std::atoi(argv[i + 1]);
        else if (option == "--churn") churn = std::atoi(argv[i + 1]);
        else if (option == "--trace") tracePath = argv[i + 1];
        else if (option == "--build-seconds") buildSeconds = std::atof(argv[i + 1]);
        else fail("unknown option " + option);
    }
    Workload w = parse(path);

    std::vector<double> buildTimes;
    double spent = 0;
    std::unique_ptr<Built> built;
    for (int i = 0; i < builds; ++i) {
        auto b = std::make_unique<Built>();
        double start = now();
        build(w, *b);
        buildTimes.push_back(now() - start);
        spent += buildTimes.back();
        built = std::move(b);
        if (buildSeconds > 0 && spent > buildSeconds) break;
    }
    Built& b = *built;
    double checksumBuild = checksum(b);

    std::vector<double> perStep;
    for (int loop = 0; loop < loops; ++loop) {
        double start = now();
        for (const auto& step : w.steps) {
            for (const auto& [name, value] : step) b.solver.suggestValue(b.variables.at(name), value);
            b.solver.updateVariables();
        }
        perStep.push_back((now() - start) / std::max<size_t>(1, w.steps.size()));
    }
    double checksumSuggest = checksum(b);

    // churn: remove and re-add each of the first K optional constraints.
    std::vector<size_t> optional;
    for (size_t i = 0; i < w.constraints.size() && (int)optional.size() < churn; ++i)
        if (w.constraints[i].priority < 1000) optional.push_back(i);
    double start = now();
    for (size_t i : optional) {
        b.solver.removeConstraint(b.constraints[i]);
        b.solver.addConstraint(b.constraints[i]);
    }
    b.solver.updateVariables();
    double churnTime = (now() - start) / std::max<size_t>(1, optional.size());

    // setc: move each of those constraints' right-hand side by 1 and back (a remove and an add each).
    start = now();
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t i : optional) {
            const Item& item = w.constraints[i];
            b.solver.removeConstraint(b.constraints[i]);
            b.constraints[i] = make(item, b.variables, item.rhs + (pass == 0 ? 1 : 0));
            b.solver.addConstraint(b.constraints[i]);
        }
        b.solver.updateVariables();
    }
    double setcTime = (now() - start) / std::max<size_t>(1, 2 * optional.size());

    // trace: a recorded sequence of removes, adds, constant changes and suggests, each followed by an update.
    // Read into operations before the clock starts, as the Swift side reads its trace: only the solver is timed.
    double traceTime = 0;
    long traceOps = 0, refused = 0;
    if (!tracePath.empty()) {
        std::vector<TraceOp> ops = readTrace(tracePath, w.constraints.size());
        // Each constraint starts as built (the churn and setc phases above leave them so).
        start = now();
        for (const TraceOp& op : ops) {
            try {
                switch (op.kind) {
                case TraceOp::Remove:
                    b.solver.removeConstraint(b.constraints[op.index]);
                    b.present[op.index] = false;
                    break;
                case TraceOp::Add:
                    b.solver.addConstraint(b.constraints[op.index]);
                    b.present[op.index] = true;
                    break;
                case TraceOp::SetConstant:
                    if (b.present[op.index]) b.solver.removeConstraint(b.constraints[op.index]);
                    b.constraints[op.index] = make(w.constraints[op.index], b.variables, op.values[0]);
                    if (b.present[op.index]) b.solver.addConstraint(b.constraints[op.index]);
                    break;
                case TraceOp::Suggest:
                    for (size_t e = 0; e < b.editVariables.size() && e < op.values.size(); ++e)
                        b.solver.suggestValue(b.editVariables[e], op.values[e]);
                    break;
                }
            } catch (const std::exception&) {
                ++refused;
            }
            b.solver.updateVariables();
            ++traceOps;
        }
        traceTime = (now() - start) / std::max<long>(1, traceOps);
    }

    std::printf("{\"build_ms_median\": %.6f, \"build_ms_min\": %.6f, \"build_ms_max\": %.6f, "
                "\"suggest_us_median\": %.6f, \"churn_us_per_pair\": %.6f, \"churn_pairs\": %zu, "
                "\"setc_us\": %.6f, \"trace_us_per_op\": %.6f, \"trace_ops\": %ld, \"trace_refused\": %ld, "
                "\"checksum_after_build\": %.6f, \"checksum_after_suggest\": %.6f, \"builds\": %zu}\n",
                median(buildTimes) * 1e3, *std::min_element(buildTimes.begin(), buildTimes.end()) * 1e3,
                *std::max_element(buildTimes.begin(), buildTimes.end()) * 1e3, median(perStep) * 1e6, churnTime * 1e6,
                optional.size(), setcTime * 1e6, traceTime * 1e6, traceOps, refused, checksumBuild, checksumSuggest,
                buildTimes.size());
    return 0;
}
