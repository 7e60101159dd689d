/**
 * @file The readout side of the page: the caption saying what is shown
 * (and, during a replay, that it is the old state), the readout table, the
 * headline over the view, the divergence strip, the contact legend and the
 * plots. All of it shows the run controller's shown frame; none of it
 * changes what is simulated.
 */

import { countHistoryData, drawCountHistory } from '../plots/count-history.js';
import { drawEnergyHistory, energyHistoryData } from '../plots/energy-history.js';
import { drawHistogram, histogramData } from '../plots/histogram.js';
import { drawRegionAreas, regionAreasData } from '../plots/region-areas.js';
import { drawSortedQuality, sortedQualityData } from '../plots/sorted-quality.js';
import { showPlotData } from '../plots/table.js';
import { canRestore, showDivergence } from '../ui/divergence.js';
import { showLegend } from '../ui/legend.js';
import { buildReadout, headlineParts, oracleTerms, showHeadline, showReadout } from '../ui/readout-table.js';

/** Shows the shown frame's numbers: caption, readout, headline, divergence, legend, plots. */
export class ReadoutPanel {
  /**
   * @param {{elements: import('./elements.js').ReadoutElements,
   *   controller: import('../state/run-controller.js').RunController,
   *   terms: import('./page-config.js').ConfigTerms,
   *   featureKinds: any,
   *   chooseOracle: (value: string) => void}} options featureKinds: the catalogue's, for the legend;
   *   chooseOracle: the readout's button for the other oracle was pressed (a value of the `oracle` setting)
   */
  constructor({ elements, controller, terms, featureKinds, chooseOracle }) {
    this.elements = elements;
    this.controller = controller;
    this.terms = terms;
    /** A plot drawing is scheduled (see schedulePlots). */
    this.plotsPending = false;
    this.featureKinds = featureKinds;
    buildReadout(elements.readout);
    const offer = /** @type {HTMLButtonElement} */ (elements.readout.querySelector('#oracle-switch'));
    offer.addEventListener('click', () => {
      if (offer.dataset.oracle) chooseOracle(offer.dataset.oracle);
    });
    // The plots' summaries and tables are in place before the first frame,
    // so filling them then does not push the panel's content about.
    this.drawPlots();
  }

  /** @param {any} info the newly shown scene's info */
  showScene(info) {
    this.elements.plots.regionsFigure.hidden = !(info.expected_region_areas?.length > 0);
  }

  /** @param {import('../state/run-controller.js').Shown} shown */
  showFrame(shown) {
    const { readout, headline, diverged } = this.elements;
    const config = /** @type {import('./page-config.js').PageConfig} */ (shown.config);
    const info = shown.scene.info;
    const record = shown.frame.record;
    const toleranceDeg = this.terms.toleranceDeg(config);
    const oracleChoice = this.terms.oracleChoice(config);
    // The info's time step is the one the core ran this configuration with.
    showReadout(readout, record, shown.step, info, { toleranceDeg, dt: info.dt ?? null, oracleChoice });
    showHeadline(headline, headlineParts(record, shown.step, { toleranceDeg, oracleName: oracleTerms(record, info, oracleChoice).name }));
    showDivergence(diverged, record?.diverged ?? null, { step: shown.step, restorable: canRestore(config.settings, this.terms.schema) });
    this.schedulePlots();
    this.updateCaption();
  }

  /**
   * Draws the plots in a task of their own, once for any number of frames
   * shown before it runs: drawing them inside the worker's answer made it
   * one long task that kept the page from answering input (and a replay
   * shows many frames between two paints).
   */
  schedulePlots() {
    if (this.plotsPending) return;
    this.plotsPending = true;
    setTimeout(() => {
      this.plotsPending = false;
      this.drawPlots();
    }, 0);
  }

  /**
   * The key to the contact glyphs' colours, with how many are drawn, and
   * to the region outlines when they are drawn.
   * @param {import('./view.js').DrawnContacts} contacts
   */
  showLegend({ count, shown, featureColours, regions }) {
    const current = this.controller.shown;
    if (!current) return;
    showLegend(this.elements.legend, {
      featureColours,
      featureKinds: this.featureKinds,
      oracle: oracleTerms(current.frame.record, current.scene.info, this.terms.oracleChoice(/** @type {import('./page-config.js').PageConfig} */ (current.config))).headline,
      count,
      shown,
      regions,
      toleranceDeg: this.terms.toleranceDeg(/** @type {import('./page-config.js').PageConfig} */ (current.config)),
    });
  }

  /** Draws the plots at the canvases' current sizes; empty before anything is shown. */
  drawPlots() {
    const plots = this.elements.plots;
    const shown = this.controller.shown;
    const record = shown?.frame.record;
    const info = shown?.scene.info;
    const toleranceDeg = shown ? this.terms.toleranceDeg(/** @type {import('./page-config.js').PageConfig} */ (shown.config)) : NaN;
    // Each plot with its text equivalent, from the same numbers.
    const figure = (canvas) => /** @type {HTMLElement} */ (canvas.closest('figure'));
    const sorted = record?.sorted_quality ?? [];
    const threshold = Number.isFinite(toleranceDeg) ? Math.cos((toleranceDeg * Math.PI) / 180) : NaN;
    drawSortedQuality(plots.sorted, sorted, threshold);
    showPlotData(figure(plots.sorted), sortedQualityData(sorted, threshold));
    const bins = record?.histogram ?? new Array(20).fill(0);
    drawHistogram(plots.histogram, bins);
    showPlotData(figure(plots.histogram), histogramData(bins));
    const history = shown?.history ?? [];
    drawCountHistory(plots.count, history, info?.min_contacts ?? null);
    showPlotData(figure(plots.count), countHistoryData(history, info?.min_contacts ?? null));
    drawEnergyHistory(plots.energy, history);
    showPlotData(figure(plots.energy), energyHistoryData(history));
    // The plateaus are the exact regions' areas, computed by the core.
    const plateaus = info?.expected_region_areas ?? [];
    if (plateaus.length > 0) {
      drawRegionAreas(plots.regions, record?.region_areas ?? [], plateaus);
      showPlotData(figure(plots.regions), regionAreasData(record?.region_areas ?? [], plateaus));
    }
  }

  /** Says what the readout shows, and during a replay that it is the old state. */
  updateCaption() {
    const shown = this.controller.shown;
    const caption = this.elements.caption;
    if (!shown) {
      caption.textContent = '';
      return;
    }
    const what = `${this.terms.describe(/** @type {import('./page-config.js').PageConfig} */ (shown.config))}, step ${shown.step}`;
    caption.textContent = this.controller.run === 'replaying' ? `Still showing ${what} until the replay is done` : `Showing ${what}`;
  }
}
