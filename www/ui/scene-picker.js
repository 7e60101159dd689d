/**
 * @file The scene picker: a <select> with one <optgroup> per scene group,
 * groups and scenes in the order the core lists them.
 */

/**
 * Summary of a built-in scene, as `Playground.scenes()` returns it.
 * @typedef {object} SceneSummary
 * @property {string} id
 * @property {string} title
 * @property {string} group
 * @property {string} description
 * @property {number} bodies
 * @property {number} min_contacts
 */

/**
 * Fills `select` with the scenes, grouped.
 * @param {HTMLSelectElement} select
 * @param {SceneSummary[]} scenes
 */
export function fillScenePicker(select, scenes) {
  /** @type {Map<string, HTMLOptGroupElement>} */
  const groups = new Map();
  select.replaceChildren();
  for (const scene of scenes) {
    let group = groups.get(scene.group);
    if (!group) {
      group = document.createElement('optgroup');
      group.label = scene.group;
      groups.set(scene.group, group);
      select.append(group);
    }
    const option = document.createElement('option');
    option.value = scene.id;
    option.textContent = scene.title;
    option.title = scene.description;
    group.append(option);
  }
  select.disabled = scenes.length === 0;
}
