// A single-page app: its router swaps the whole view, the survey's (a div and the snippet, as
// the partner's template holds them) or an article's, without loading another document.
(function () {
  var me = document.currentScript;
  var app = document.getElementById('app');
  var views = {
    survey: function () {
      var div = document.createElement('div');
      div.setAttribute('data-trial-widget', '');
      var s = document.createElement('script');
      s.async = true;
      s.src = me.dataset.widget;
      s.dataset.mediaChannelId = me.dataset.channel;
      s.dataset.screenerId = me.dataset.screener;
      return [div, s];
    },
    article: function () {
      var p = document.createElement('p');
      p.id = 'article';
      p.textContent = 'An article about heart health.';
      return [p];
    },
  };
  window.spaGo = function (route) {
    history.pushState(null, '', '#' + route);
    app.replaceChildren.apply(app, views[route]());
  };
  app.replaceChildren.apply(app, views.survey());
})();
