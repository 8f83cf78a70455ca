/**
 * The catalog downloader against a local replica of the official export page (the live site is
 * not reachable from the test machines): the form read from the page and posted back with its
 * hidden fields and cookie, the zip checked and written atomically, and each way it can fail.
 * Timeouts are short options and every wait is on an event, never on a fixed delay.
 */
import { describe, expect, it } from 'vitest';
import { DownloadError, readExportForm } from '../build/download/index.js';
import { officialPage } from './support/correos-replica.js';

describe('the export form read from the page', () => {
  const pageUrl = new URL('https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx');
  const hidden = { __EVENTTARGET: '', __EVENTARGUMENT: '', __LASTFOCUS: '', __VIEWSTATE: '/wEPa+b/c==', __VIEWSTATEGENERATOR: 'BE1A6D2E', __EVENTVALIDATION: '/wEWx+y/z=' };
  const names = { state: 'cboEdo', format: 'rblTipo', button: 'btnDescarga' };

  it('finds the state list, the format, the button and every hidden field, and posts them as a browser does', () => {
    const form = readExportForm(officialPage(hidden, names), pageUrl);
    expect(form.action.href).toBe(pageUrl.href);
    expect(form.fields).toEqual({ ...names, hidden: Object.keys(hidden) });
    expect(form.states).toHaveLength(33);
    expect(form.states[0]).toEqual({ key: '00', label: '---------- T o d o s ----------' });
    expect(form.states.find((s) => s.key === '16')?.label).toBe('Michoacán de Ocampo');
    const posted = new URLSearchParams(form.body('09'));
    expect(Object.fromEntries(posted)).toEqual({ ...hidden, cboEdo: '09', rblTipo: 'txt', 'btnDescarga.x': '1', 'btnDescarga.y': '1' });
    // One value per name: the format radios are sent once, as a browser sends the checked one.
    expect(posted.getAll('rblTipo')).toEqual(['txt']);
  });

  it('reads controls by what they are when the names change, and sends a <button> by its value', () => {
    const html = `<html><body><FORM method=POST action="/otra/Exportar.aspx?x=1">
      <INPUT type=hidden name=__VIEWSTATE value="vs&amp;1">
      <input type="text" name="txtBuscar" value="Jalisco &#233;">
      <input type="checkbox" name="chkAviso" checked>
      <input type="checkbox" name="chkOtro">
      <select name="ddlEntidad"><option value="00" selected>Todos</option><option value="14">Jalisco</option></select>
      <select name="ddlFormato"><option value="xls">Excel</option><option value="txt">Texto</option></select>
      <button type="submit" name="cmdBajar" value="Bajar">Descargar</button>
    </FORM></body></html>`;
    const form = readExportForm(html, pageUrl);
    expect(form.fields).toEqual({ state: 'ddlEntidad', format: 'ddlFormato', button: 'cmdBajar', hidden: ['__VIEWSTATE'] });
    expect(form.action.href).toBe('https://www.correosdemexico.gob.mx/otra/Exportar.aspx?x=1');
    expect([...new URLSearchParams(form.body('14'))]).toEqual([
      ['__VIEWSTATE', 'vs&1'],
      ['txtBuscar', 'Jalisco é'],
      ['chkAviso', 'on'],
      ['ddlEntidad', '14'],
      ['ddlFormato', 'txt'],
      ['cmdBajar', 'Bajar'],
    ]);
  });

  it('never takes a control from a comment, a script or outside the form, nor a disabled one', () => {
    const html = `<form method="post" action="">
      <!-- <input type="hidden" name="__VIEWSTATE" value="commented"> -->
      <script>var s = '<input type="hidden" name="injected" value="x">';</script>
      <input type="hidden" name="__VIEWSTATE" value="real">
      <input type="hidden" name="disabledOne" value="x" disabled>
      <select name="cboEdo"><option value="00">Todos</option></select>
      <input type="radio" name="rblTipo" value="txt">
      <input type="image" name="btnDescarga" src="d.png">
    </form><input type="hidden" name="outside" value="x">`;
    const posted = new URLSearchParams(readExportForm(html, pageUrl).body('00'));
    expect([...posted.keys()]).toEqual(['__VIEWSTATE', 'cboEdo', 'rblTipo', 'btnDescarga.x', 'btnDescarga.y']);
    expect(posted.get('__VIEWSTATE')).toBe('real');
  });

  const good = officialPage(hidden, names);
  it.each([
    ['no form at all', '<html><head><title>Sitio en mantenimiento</title></head><body>Volvemos pronto</body></html>', /\("Sitio en mantenimiento"\) has no form/],
    ['the state list gone', good.replace(/<select[\s\S]*?<\/select>/, '<input type="text" name="txtEstado">'), /has no state list/],
    ['no __VIEWSTATE', good.replace(/<input type="hidden" name="__VIEWSTATE"[^>]*>/, ''), /has no __VIEWSTATE hidden field/],
    ['no txt format', good.replace('value="txt"', 'value="csv"'), /offers no "txt" format in rblTipo/],
    ['no button', good.replace(/<input type="image"[^>]*>/, ''), /has no download button/],
    ['a form sent by GET', good.replace('method="post"', 'method="get"'), /sends its form by GET/],
    ['a form posting to another site', good.replace('action="./CodigoPostal_Exportar.aspx"', 'action="https://elsewhere.example/collect"'), /posts its form to another site \(https:\/\/elsewhere\.example\)/],
  ])('refuses a page with %s as page-changed, saying what is missing', (_what, html, message) => {
    let error: unknown;
    try {
      readExportForm(html, pageUrl);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).kind).toBe('page-changed');
    expect((error as DownloadError).message).toMatch(message);
  });
});
