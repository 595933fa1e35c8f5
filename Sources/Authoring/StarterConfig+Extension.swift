import PipelineLanguage

extension StarterConfig {
    /// `extension:` for the specs found: the spec collection, and under `params:` each spec's
    /// parameters with the values the exports hold for them. A required parameter's values are
    /// written out though a build would take them itself: the list shows what will be built, and
    /// removing it keeps up with new values. A parameter with no values found gets a comment
    /// saying to list them (a build stops at a spec using a parameter without values); a spec
    /// with no parameter written stays in comments, so the file loads.
    static func extensionLines(_ survey: SpecSurvey) -> [String] {
        let plain = survey.specs.filter(\.parameters.isEmpty).map(\.id)
        let parameterized = survey.specs.filter { !$0.parameters.isEmpty }
        var lines = [
            "",
            "# The bundle specs of the firestore-bundle-builder extension, read from \(survey.collection) in the exports:",
            "# every build makes their bundles from the specs the export holds, so keep editing them in Firestore",
            "# (or the extension's dashboard). A spec's bundle is also published at /bundles/<specId> (with",
            "# parameters /bundles/<specId>/<param>/<value>…): docs/migrating-from-the-extension.md.",
            "# Other collections are not published: add bundles: of your own beside the specs' (docs/pipeline.md).",
            "extension:",
            "  collection: \(quoted(survey.collection.description))",
        ]
        if !plain.isEmpty {
            lines.append("  # Without parameters, one bundle each: \(plain.joined(separator: ", ")).")
        }
        guard !parameterized.isEmpty else { return lines }
        lines.append("  # With parameters, one bundle per value listed (per combination, with several parameters):")
        let written = parameterized.map { $0.parameters.contains(where: hasValues) }
        lines.append(written.contains(true) ? "  params:" : "  # params:")
        for (spec, isWritten) in zip(parameterized, written) {
            // A spec with no parameter written would be `spec:` with no value: it is a comment too.
            lines.append((isWritten ? "    " : "    # ") + "\(quoted(spec.id)):")
            lines += spec.parameters.flatMap { parameterLines($0, specLine: isWritten ? nil : spec.id) }
        }
        return lines
    }

    private static func hasValues(_ parameter: ExtensionSpec.ParameterInData) -> Bool {
        parameter.field != nil && !parameter.values.isEmpty
    }

    /// The lines of one parameter under its spec: a comment saying what was found, then its
    /// values, or a comment saying to list them. `specLine` names the spec when its line is
    /// commented (then so are the values, to be uncommented with it).
    private static func parameterLines(_ parameter: ExtensionSpec.ParameterInData, specLine: String?) -> [String] {
        let head = "      # \(parameter.name) (\(parameter.type)\(parameter.isRequired ? ", required" : "")): "
        let key = "\(quoted(parameter.name)): "
        guard let field = parameter.field, hasValues(parameter) else {
            let why: String
            if let field = parameter.field {
                why = "no document of its query holds a \(parameter.type) value in \(field)."
            } else if parameter.type.hasSuffix("-array") {
                why = "an array parameter; its values are not looked up in the data."
            } else {
                why = "no where compares a field with it (by == or array-contains, over a fixed collection)."
            }
            let uncomment = specLine.map { ", and uncomment \(quoted($0)): above" } ?? ""
            return [
                head + why,
                "      # List the values to build\(uncomment) (a build stops at a spec using it without values):",
                "      # " + key + (parameter.type.hasSuffix("-array") ? "[[a, b], [c]]" : "[...]"),
            ]
        }
        let found = "the \(plural(parameter.values.count, "value")) of \(field) found in the exports."
        let values = flowList(parameter.values.map(yamlValue), prefix: key)
        let note = parameter.isRequired ? ["      # Without this list each build takes that field's values itself, new ones included."] : []
        return [head + found] + note + values.map { "      " + $0 }
    }

    /// A value as pipeline.yml lists it: a scalar, or a flow sequence for an array parameter's.
    private static func yamlValue(_ value: SpecParameterValue) -> String {
        switch value {
        case .text(let text): return quoted(text)
        case .list(let texts): return "[" + texts.map(quoted).joined(separator: ", ") + "]"
        }
    }

    /// `prefix[a, b, …]` as a YAML flow sequence, continued on further lines past 100 characters.
    private static func flowList(_ items: [String], prefix: String) -> [String] {
        var lines: [String] = []
        var line = prefix + "["
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "]" : ",")
            if line.count + piece.count > 100, line.count > prefix.count + 1 {
                lines.append(line)
                line = String(repeating: " ", count: prefix.count + 1)
            } else if line.count > prefix.count + 1 {
                line += " "
            }
            line += piece
        }
        return lines + [line]
    }
}
