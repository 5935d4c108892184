-- SPDX-License-Identifier: Apache-2.0
-- pandoc filter for the HTML manual (docs/CMakeLists.txt). The Markdown pages link to each other
-- and to the source tree as GitHub shows them; the manual is read from its own folder, offline:
--   * a link to another page, name.md[#anchor], points at name.html[#anchor];
--   * a screenshot, ../resources/screenshots/NAME, is the copy images/NAME beside the pages,
--     shown 720 pixels wide;
--   * a link to any other file of the source tree, which the installed manual does not hold,
--     becomes its text, followed by the file's path when the text does not already name it;
--   * the page's title is the text of its first level-1 heading (naming Tessera).
-- Links with a scheme (https:, mailto:) and anchors within the page are left as they are.

local function has_scheme(target)
    return target:match("^%a[%w+.-]*:") ~= nil or target:sub(1, 2) == "//"
end

local function screenshot(path)
    local name = path:match("^%.%./resources/screenshots/([%w_.-]+)$")
    if name and (name:match("%.png$") or name:match("%.jpe?g$") or name:match("%.svg$")) then
        return name
    end
    return nil
end

-- Screenshots are shown 720 pixels wide: Qt's browser (Help > User Guide) knows no max-width,
-- and a web browser still scales them down to the page (manual.css).
function Image(el)
    local name = screenshot(el.src)
    if name then
        el.src = "images/" .. name
        if el.attributes["width"] == nil then
            el.attributes["width"] = "720"
        end
    end
    return el
end

function Link(el)
    local target = el.target
    if target == "" or has_scheme(target) or target:sub(1, 1) == "#" then
        return nil
    end
    local path, fragment = target:match("^([^#]*)(.*)$")
    if path:match("^[%w_.-]+%.md$") then
        el.target = path:gsub("%.md$", ".html") .. fragment
        return el
    end
    local name = screenshot(path)
    if name then
        el.target = "images/" .. name
        return el
    end
    local source_path = path:gsub("^%.%./", "")
    local text = pandoc.utils.stringify(el.content)
    local out = pandoc.List(el.content)
    if text ~= source_path then
        out:insert(pandoc.Str(" ("))
        out:insert(pandoc.Code(source_path))
        out:insert(pandoc.Str(")"))
    end
    return out
end

function Pandoc(doc)
    if doc.meta.pagetitle == nil then
        for _, block in ipairs(doc.blocks) do
            if block.t == "Header" and block.level == 1 then
                local title = pandoc.utils.stringify(block.content)
                if not title:find("Tessera", 1, true) then
                    title = title .. " - Tessera manual"
                end
                doc.meta.pagetitle = title
                break
            end
        end
    end
    return doc
end
